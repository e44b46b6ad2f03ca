// One translation through the AI SDK, as its users call it: `generateText` / `streamText` with a
// provider model whose fetch is the fake upstream (lib/upstream.mjs). Requests (and the tool list and
// tool choice inside them) are read where they leave the provider package; responses and streams are
// fed to it and read back from what `generateText` returns and `streamText`'s fullStream yields.

import { createHash } from "node:crypto";
import { generateText, jsonSchema, streamText, tool } from "ai";

import { ResultRefusal, StreamMapper, toCanonicalResponse } from "./from-aisdk.mjs";
import { answeredModel, CHOICE_MEMBERS, languageModel } from "./providers.mjs";
import { NoCounterpart, toCallOptions, toToolChoice, toToolSet } from "./to-aisdk.mjs";
import { Upstream } from "./upstream.mjs";

globalThis.AI_SDK_LOG_WARNINGS = false; // the SDK's warnings would go to the console; the bodies tell

/** A refusal to answer: `code` (corpus/errors.json or protocol.*), message, JSON Pointer or null. */
export class Refusal extends Error {
  constructor(code, message, path = null) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

/** The AI SDK's error classes (by `name`) that mean "this input is refused", and a corpus code. */
const SDK_REFUSALS = {
  AI_InvalidPromptError: "payload.invalid",
  AI_InvalidArgumentError: "payload.invalid",
  AI_InvalidMessageRoleError: "message.invalid_role",
  AI_UnsupportedFunctionalityError: "content.unsupported",
  AI_TypeValidationError: "payload.invalid",
  AI_InvalidDataContentError: "content.unsupported",
  AI_MessageConversionError: "payload.invalid",
  AI_NoSuchToolError: "payload.invalid",
};
/** For responses: the SDK could not read the body. */
const SDK_RESPONSE_REFUSALS = {
  AI_APICallError: "response.invalid",
  AI_TypeValidationError: "response.invalid",
  AI_JSONParseError: "response.invalid",
  AI_InvalidResponseDataError: "response.invalid",
  AI_NoContentGeneratedError: "response.invalid",
  AI_NoOutputGeneratedError: "response.invalid",
  AI_EmptyResponseBodyError: "response.invalid",
};

/** Math.random drives every id the SDK generates: seeded from the input, runs are reproducible. */
export function seedRandom(...parts) {
  const digest = createHash("sha256").update(JSON.stringify(parts)).digest();
  let state = digest.readUInt32LE(0);
  Math.random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function refusalOf(err, table) {
  if (err instanceof Refusal) return err;
  if (err instanceof NoCounterpart) {
    return new Refusal("protocol.unsupported", `no AI SDK counterpart: ${err.message}`, err.path);
  }
  if (err instanceof ResultRefusal) return new Refusal(err.code, err.message, null);
  const code = table[err?.name];
  if (code) return new Refusal(code, `${err.name}: ${err.message}`, null);
  return null;
}

/**
 * A tool for every name the model calls: the application that gets a response has the tools it calls.
 * Its input schema takes any JSON object (every tool's input is one), and, where the provider package
 * reads custom (free-form) calls (Responses), a string too: so the SDK's own validation of the input it
 * parsed still applies (a call whose arguments are not an object comes back `invalid`).
 */
function anyTools(custom) {
  const accepts = (value) =>
    (value !== null && typeof value === "object" && !Array.isArray(value)) ||
    (custom && typeof value === "string");
  const anyTool = tool({
    inputSchema: jsonSchema(
      { type: "object" },
      {
        validate: (value) =>
          accepts(value)
            ? { success: true, value }
            : { success: false, error: new TypeError("the tool's input is not a JSON object") },
      },
    ),
  });
  return new Proxy(
    {},
    {
      get: (target, name) => (typeof name === "string" && !(name in Object.prototype) ? anyTool : undefined),
    },
  );
}

/** Sources whose provider package reads custom (free-form) tool calls: their input is a string. */
const CUSTOM_CALLS = new Set(["openai-responses"]);

/**
 * A Chat Completions reply (a response, or a stream's chunk) carrying a custom (free-form) tool call: an
 * answer the AI SDK's Chat model is never given, since it declares function tools only (@ai-sdk/openai
 * `prepareChatTools` drops every other tool type), so there is nothing of the AI SDK's to judge.
 */
function unreachableChatCustomCall(source, payload) {
  if (source !== "openai-chat" || !payload || typeof payload !== "object") return;
  for (const choice of Array.isArray(payload.choices) ? payload.choices : []) {
    const calls = choice?.message?.tool_calls ?? choice?.delta?.tool_calls;
    if (Array.isArray(calls) && calls.some((call) => call?.type === "custom")) {
      throw new Refusal(
        "protocol.unsupported",
        "no AI SDK counterpart: a Chat custom tool call answers a custom tool, which the AI SDK's Chat model never declares",
      );
    }
  }
}

const HI = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

/**
 * The SDK's `experimental_download` as the SDK does it, minus the network: a URL the provider package
 * takes stays a URL; one it does not take the SDK would download and inline, which an offline run
 * cannot do (and the bytes it would inline are not in the case): not judged.
 */
async function offlineDownload(requests) {
  return requests.map(({ url, isUrlSupportedByModel }) => {
    if (isUrlSupportedByModel) return null;
    throw new NoCounterpart(`the AI SDK downloads ${url} to inline it, which an offline run cannot judge`);
  });
}

/** Run one generateText call that only records its request; the body the provider package sent. */
async function recordRequest(target, modelId, options) {
  const up = new Upstream("record");
  try {
    await generateText({
      model: languageModel(target, modelId, up.fetch),
      maxRetries: 0,
      experimental_download: offlineDownload,
      ...options,
    });
  } catch (err) {
    if (up.requests.length === 0) throw err; // refused before anything was sent: the SDK's answer
    // else: the recording fetch threw (Recorded) after keeping the request
  }
  const body = up.sentBody();
  if (body === null) throw new Error("the AI SDK sent no request");
  return body;
}

/** The names a canonical tool-choice fragment refers to (or `f`), as tools a request can carry. */
function choiceTools(fragment) {
  const names = Array.isArray(fragment?.tool_choice?.tools) ? fragment.tool_choice.tools : [];
  const unique = [...new Set(names.filter((n) => typeof n === "string"))];
  return (unique.length ? unique : ["f"]).map((name) => ({
    name,
    description: name,
    parameters: { type: "object", properties: {} },
  }));
}

async function translateRequest(target, payload) {
  const { modelId, stream, options } = toCallOptions(payload, target);
  if (stream) return recordStreamRequest(target, modelId, options);
  return recordRequest(target, modelId, options);
}

/** A `stream: true` request: streamText, whose request is recorded the same way. */
async function recordStreamRequest(target, modelId, options) {
  const up = new Upstream("record");
  let failure = null;
  const result = streamText({
    model: languageModel(target, modelId, up.fetch),
    maxRetries: 0,
    experimental_download: offlineDownload,
    ...options,
    onError: ({ error }) => {
      failure = error;
    },
  });
  for await (const part of result.fullStream) {
    if (part.type === "error" && failure === null) failure = part.error;
  }
  if (up.requests.length === 0) throw failure ?? new Error("the AI SDK sent no request");
  return up.sentBody();
}

async function translateTools(target, payload) {
  const tools = toToolSet(payload, "");
  const body = await recordRequest(target, undefined, { messages: HI, tools });
  return body.tools ?? [];
}

async function translateChoice(target, payload) {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new NoCounterpart("a tool-choice payload is an object", "");
  }
  const providerOptions = {};
  const tools = toToolSet(choiceTools(payload));
  const choice = toToolChoice(payload, target, Object.keys(tools), providerOptions);
  const options = { messages: HI, tools, ...choice };
  if (Object.keys(providerOptions).length) options.providerOptions = providerOptions;
  const body = await recordRequest(target, undefined, options);
  const out = {};
  for (const member of CHOICE_MEMBERS[target]) if (member in body) out[member] = body[member];
  return out;
}

async function translateResponse(source, payload, profile) {
  unreachableChatCustomCall(source, payload);
  const up = new Upstream("json", payload);
  const result = await generateText({
    model: languageModel(source, answeredModel(payload), up.fetch),
    maxRetries: 0,
    messages: HI,
    tools: anyTools(CUSTOM_CALLS.has(source)),
  });
  return toCanonicalResponse(result, profile, CUSTOM_CALLS.has(source));
}

/**
 * Translate one payload (`kind` from `source` to `target`); resolves to the output payload, or
 * rejects with a Refusal (answered as an error) or any other error (answered as a crash).
 */
export async function translate(kind, source, target, payload, profile = {}) {
  seedRandom(kind, source, target, payload);
  try {
    if (kind === "response") return await translateResponse(source, payload, profile);
    if (kind === "request") return await translateRequest(target, payload);
    if (kind === "tools") return await translateTools(target, payload);
    if (kind === "tool_choice") return await translateChoice(target, payload);
  } catch (err) {
    const refusal = refusalOf(err, kind === "response" ? SDK_RESPONSE_REFUSALS : SDK_REFUSALS);
    if (refusal) throw refusal;
    throw err;
  }
  throw new Refusal("protocol.unsupported", `${kind} ${source}>${target} is not implemented`);
}

/** Let the SDK's stream pipeline run until it is idle (no new part for three event-loop turns). */
async function settle(count) {
  let last = count();
  let quiet = 0;
  while (quiet < 3) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = count();
    if (now === last) quiet += 1;
    else {
      quiet = 0;
      last = now;
    }
  }
}

/**
 * One streamed response fed to `streamText` event by event: `feed(event)` and `end()` resolve to the
 * canonical events the SDK's fullStream produced in reaction (a Refusal rejects and ends the stream).
 */
export class StreamTranslation {
  constructor(source, firstEvent, profile = {}) {
    seedRandom("stream", source, firstEvent);
    this.source = source;
    this.upstream = new Upstream("sse");
    this.mapper = new StreamMapper(profile, CUSTOM_CALLS.has(source));
    this.out = [];
    this.parts = 0;
    this.failure = null;
    const result = streamText({
      model: languageModel(source, answeredModel([firstEvent]), this.upstream.fetch),
      maxRetries: 0,
      messages: HI,
      tools: anyTools(CUSTOM_CALLS.has(source)),
      onError: () => {}, // error parts are read from fullStream
    });
    this.done = (async () => {
      try {
        for await (const part of result.fullStream) {
          this.parts += 1;
          if (this.failure) continue;
          try {
            this.out.push(...this.mapper.push(part));
          } catch (err) {
            this.failure = err;
          }
        }
      } catch (err) {
        this.failure ??= err;
      }
    })();
  }

  take() {
    if (this.failure) {
      const refusal = refusalOf(this.failure, SDK_RESPONSE_REFUSALS);
      if (refusal) throw refusal;
      throw this.failure;
    }
    const events = this.out;
    this.out = [];
    return events;
  }

  async feed(event) {
    unreachableChatCustomCall(this.source, event?.data);
    this.upstream.push(event);
    await settle(() => this.parts);
    return this.take();
  }

  async end() {
    this.upstream.end();
    await this.done;
    return this.take();
  }
}
