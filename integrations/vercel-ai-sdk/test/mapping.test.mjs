// The canonical <-> AI SDK mapping on its own (lib/to-aisdk.mjs, lib/from-aisdk.mjs), and a few whole
// translations through the pinned provider packages with the fake upstream (offline).
//
//   cd integrations/vercel-ai-sdk && node --test test/

import assert from "node:assert/strict";
import { test } from "node:test";

import { errorCode, stopReason, StreamMapper, toCanonicalResponse, toUsage } from "../lib/from-aisdk.mjs";
import {
  NoCounterpart,
  toCallOptions,
  toModelMessages,
  toSystem,
  toToolChoice,
  toToolSet,
} from "../lib/to-aisdk.mjs";
import { StreamTranslation, translate } from "../lib/translate.mjs";

const WEATHER = {
  name: "get_weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

test("tools become a ToolSet keyed by name, in order, with their schema and strict flag", async () => {
  const set = toToolSet([WEATHER, { name: "now", strict: true }]);
  assert.deepEqual(Object.keys(set), ["get_weather", "now"]);
  assert.equal(set.get_weather.description, "Weather for a city");
  assert.deepEqual(await set.get_weather.inputSchema.jsonSchema, WEATHER.parameters);
  assert.deepEqual(await set.now.inputSchema.jsonSchema, { type: "object", properties: {} });
  assert.equal(set.now.strict, true);
});

test("what a ToolSet cannot hold has no counterpart, with the path", () => {
  assert.throws(
    () => toToolSet([WEATHER, WEATHER]),
    (e) => e instanceof NoCounterpart && e.path === "/1/name",
  );
  assert.throws(
    () => toToolSet([{ description: "x" }]),
    (e) => e instanceof NoCounterpart && e.path === "/0/name",
  );
  assert.throws(
    () => toToolSet([{ name: "x", parameters: "{}" }]),
    (e) => e.path === "/0/parameters",
  );
  assert.throws(
    () => toToolSet([{ type: "custom", name: "x" }]),
    (e) => e.path === "/0/type",
  );
  assert.throws(() => toToolSet({}), NoCounterpart);
});

test("tool choice: modes, a named tool, parallel calls per provider", () => {
  const names = ["get_weather", "now"];
  let options = {};
  assert.deepEqual(toToolChoice({ tool_choice: { mode: "required" } }, "anthropic", names, options), {
    toolChoice: "required",
  });
  assert.deepEqual(
    toToolChoice({ tool_choice: { mode: "required", tools: ["now"] } }, "gemini", names, options),
    {
      toolChoice: { type: "tool", toolName: "now" },
    },
  );
  options = {};
  toToolChoice({ parallel_tool_calls: false }, "openai-chat", names, options);
  assert.deepEqual(options, { openai: { parallelToolCalls: false } });
  options = {};
  toToolChoice({ parallel_tool_calls: false }, "anthropic", names, options);
  assert.deepEqual(options, { anthropic: { disableParallelToolUse: true } });
  assert.throws(() => toToolChoice({ parallel_tool_calls: false }, "gemini", names, {}), NoCounterpart);
  assert.throws(
    () => toToolChoice({ tool_choice: { mode: "required", tools: names } }, "openai-chat", names, {}),
    (e) => e instanceof NoCounterpart && e.path === "/tool_choice/tools",
  );
  assert.throws(
    () => toToolChoice({ tool_choice: { mode: "any" } }, "openai-chat", names, {}),
    NoCounterpart,
  );
});

test("messages: results become a tool message before the user's other parts; errors keep their flag", () => {
  const messages = toModelMessages(
    [
      { role: "user", content: [{ type: "text", text: "Weather?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "hmm", signature: "sig", origin: "anthropic" },
          { type: "tool_call", id: "c1", name: "get_weather", arguments: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            call_id: "c1",
            content: [{ type: "text", text: "no data" }],
            is_error: true,
          },
          { type: "text", text: "And?" },
        ],
      },
    ],
    "anthropic",
  );
  assert.deepEqual(messages, [
    { role: "user", content: [{ type: "text", text: "Weather?" }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "hmm", providerOptions: { anthropic: { signature: "sig" } } },
        { type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: { city: "Paris" } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "get_weather",
          output: { type: "error-text", value: "no data" },
        },
      ],
    },
    { role: "user", content: [{ type: "text", text: "And?" }] },
  ]);
});

test("signatures go to their issuer's providerOptions; media and documents to image and file parts", () => {
  const [assistant] = toModelMessages(
    [
      {
        role: "assistant",
        content: [{ type: "tool_call", id: "c", name: "f", arguments: {}, signature: "s", origin: "gemini" }],
      },
    ],
    "gemini",
  );
  assert.deepEqual(assistant.content[0].providerOptions, { google: { thoughtSignature: "s" } });
  const [user] = toModelMessages(
    [
      {
        role: "user",
        content: [
          { type: "image", media_type: "image/png", data: "iVBORw0KGgo=" },
          {
            type: "document",
            media_type: "application/pdf",
            data: "JVBERi0=",
            title: "a.pdf",
            context: "ctx",
          },
        ],
      },
    ],
    "anthropic",
  );
  assert.deepEqual(user.content[0], { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" });
  assert.deepEqual(user.content[1], {
    type: "file",
    data: "JVBERi0=",
    mediaType: "application/pdf",
    filename: "a.pdf",
    providerOptions: { anthropic: { context: "ctx" } },
  });
  assert.throws(
    () =>
      toModelMessages(
        [
          {
            role: "user",
            content: [{ type: "document", media_type: "application/pdf", data: "x", context: "c" }],
          },
        ],
        "gemini",
      ),
    (e) => e instanceof NoCounterpart && e.path === "/messages/0/content/0/context",
  );
});

test("a whole request: system messages, settings, response format, reasoning", () => {
  const { modelId, stream, options } = toCallOptions(
    {
      model: "gpt-5",
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      max_tokens: 100,
      top_p: 0.5,
      stop: ["END"],
      reasoning: { effort: "low", summary: "auto" },
      verbosity: "low",
      stream: true,
    },
    "openai-responses",
  );
  assert.equal(modelId, "gpt-5");
  assert.equal(stream, true);
  assert.deepEqual(options.system, toSystem([{ type: "text", text: "Be brief." }]));
  assert.equal(options.maxOutputTokens, 100);
  assert.equal(options.topP, 0.5);
  assert.deepEqual(options.stopSequences, ["END"]);
  assert.deepEqual(options.providerOptions, {
    openai: { reasoningEffort: "low", reasoningSummary: "auto", textVerbosity: "low" },
  });
  assert.throws(
    () => toCallOptions({ messages: [], seed: 1 }, "openai-chat"),
    (e) => e.path === "/seed",
  );
});

test("finish reasons: the unified one, refined only inside its bucket by the raw one", () => {
  assert.equal(stopReason("stop", "end_turn"), "end_turn");
  assert.equal(stopReason("stop", "stop_sequence"), "stop_sequence");
  assert.equal(stopReason("length", "model_context_window_exceeded"), "context_window_exceeded");
  assert.equal(stopReason("content-filter", "refusal"), "refusal");
  assert.equal(stopReason("content-filter", "content_filter"), "content_filter");
  assert.equal(stopReason("other", "stop_sequence"), "other");
  assert.equal(stopReason("tool-calls", "stop"), "tool_use");
});

test("usage and error codes as the SDK keeps them", () => {
  assert.equal(toUsage({ inputTokens: undefined, outputTokens: undefined }), undefined);
  assert.deepEqual(toUsage({ inputTokens: 10, outputTokens: 5, inputTokenDetails: { cacheReadTokens: 2 } }), {
    input_tokens: 10,
    output_tokens: 5,
    cached_input_tokens: 2,
  });
  assert.equal(errorCode({ type: "overloaded_error", message: "x" }), "overloaded_error");
  assert.equal(
    errorCode({ name: "AI_APICallError", data: { error: { code: 503, status: "UNAVAILABLE" } } }),
    "UNAVAILABLE",
  );
  assert.equal(
    errorCode({
      type: "error",
      code: "rate_limit_exceeded",
      data: { type: "error", code: "rate_limit_exceeded" },
    }),
    "rate_limit_exceeded",
  );
});

test("a generateText result becomes a canonical response", () => {
  const response = toCanonicalResponse({
    content: [
      { type: "reasoning", text: "t", providerMetadata: { anthropic: { signature: "S" } } },
      { type: "text", text: "Hi" },
      { type: "tool-call", toolCallId: "c", toolName: "f", input: { a: 1 } },
    ],
    finishReason: "tool-calls",
    rawFinishReason: "tool_use",
    usage: { inputTokens: 3, outputTokens: 4 },
    response: { id: "msg_1", modelId: "m" },
  });
  assert.deepEqual(response, {
    content: [
      { type: "thinking", text: "t", signature: "S", origin: "anthropic" },
      { type: "text", text: "Hi" },
      { type: "tool_call", id: "c", name: "f", arguments: { a: 1 } },
    ],
    stop_reason: "tool_use",
    id: "msg_1",
    model: "m",
    usage: { input_tokens: 3, output_tokens: 4 },
  });
});

test("stream parts: text closes when a call opens; text waits for an incomplete call", () => {
  const m = new StreamMapper();
  const out = [
    { type: "start" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", text: "Hi" },
    { type: "tool-input-start", id: "c", toolName: "f" },
    { type: "tool-input-delta", id: "c", delta: '{"a":' },
    { type: "text-delta", id: "t", text: " there" },
    { type: "tool-input-delta", id: "c", delta: "1}" },
    { type: "tool-input-end", id: "c" },
    { type: "tool-call", toolCallId: "c", toolName: "f", input: { a: 1 } },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: "tool-calls", rawFinishReason: "tool_use", totalUsage: {} },
  ].map((p) => m.push(p).map((e) => e.data));
  assert.deepEqual(out.flat(), [
    { type: "message_start" },
    { type: "text_delta", index: 0, text: "Hi" },
    { type: "block_end", index: 0 },
    { type: "tool_call_start", id: "c", name: "f", index: 1 },
    { type: "tool_call_delta", index: 1, arguments: '{"a":' },
    { type: "tool_call_delta", index: 1, arguments: "1}" },
    { type: "block_end", index: 1 },
    { type: "text_delta", index: 2, text: " there" },
    { type: "block_end", index: 2 },
    { type: "message_end", stop_reason: "tool_use" },
  ]);
  assert.deepEqual(out[5], []); // the text waited for the call's arguments
});

test("stream parts: reasoning is dropped unless stream.thinking=keep", () => {
  const parts = [
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", text: "hmm" },
    { type: "reasoning-end", id: "r", providerMetadata: { anthropic: { signature: "S" } } },
  ];
  const dropped = new StreamMapper();
  assert.deepEqual(
    parts.flatMap((p) => dropped.push(p)),
    [],
  );
  const kept = new StreamMapper({ "stream.thinking": "keep" });
  assert.deepEqual(
    parts.flatMap((p) => kept.push(p)).map((e) => e.data),
    [
      { type: "message_start" },
      { type: "thinking_delta", index: 0, text: "hmm" },
      { type: "thinking_delta", index: 0, text: "", signature: "S", origin: "anthropic" },
      { type: "block_end", index: 0 },
    ],
  );
});

test("through the provider packages: OpenAI chat tools, an Anthropic choice, a Gemini answer", async () => {
  assert.deepEqual(await translate("tools", "canonical", "openai-chat", [WEATHER]), [
    {
      type: "function",
      function: { name: "get_weather", description: "Weather for a city", parameters: WEATHER.parameters },
    },
  ]);
  assert.deepEqual(
    await translate("tool_choice", "canonical", "anthropic", {
      tool_choice: { mode: "required", tools: ["x"] },
    }),
    { tool_choice: { type: "tool", name: "x" } },
  );
  const response = await translate("response", "gemini", "canonical", {
    candidates: [
      {
        content: { role: "model", parts: [{ functionCall: { name: "f", args: { a: 1 } } }] },
        finishReason: "STOP",
      },
    ],
    modelVersion: "gemini-2.5-flash",
  });
  assert.equal(response.stop_reason, "tool_use");
  assert.deepEqual(
    response.content.map((p) => [p.type, p.name, p.arguments]),
    [["tool_call", "f", { a: 1 }]],
  );
});

test("through the provider packages: an Anthropic stream, event by event", async () => {
  const events = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 0 },
        },
      },
    },
    {
      event: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    },
    {
      event: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
    },
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
  const stream = new StreamTranslation("anthropic", events[0]);
  const answers = [];
  for (const ev of events) answers.push((await stream.feed(ev)).map((e) => e.data));
  answers.push((await stream.end()).map((e) => e.data));
  assert.deepEqual(answers[2], [{ type: "text_delta", index: 0, text: "Hi" }]); // as soon as it came
  assert.deepEqual(answers.flat().at(-1).stop_reason, "end_turn");
});
