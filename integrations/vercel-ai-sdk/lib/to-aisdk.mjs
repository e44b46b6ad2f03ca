// canonical (toolwire's neutral request model, corpus/README.md) -> the AI SDK's own neutral model:
// `ModelMessage`s, a `ToolSet` of `tool({inputSchema: jsonSchema(...)})`, a `toolChoice`, call settings
// and, only where a canonical setting needs one, `providerOptions`. Pure: no provider package is called
// here. What has no AI SDK counterpart raises `NoCounterpart` (answered `protocol.unsupported`: the check
// is skipped, not judged), never a corpus error code of the harness's own making. README.md has the table.

import { jsonSchema, Output, tool } from "ai";

/** A canonical construct the AI SDK cannot be given: the check is skipped, not judged (protocol.unsupported). */
export class NoCounterpart extends Error {
  constructor(message, path = null) {
    super(message);
    this.name = "NoCounterpart";
    this.path = path;
  }
}

/** The providerOptions namespace of each target dialect's provider package. */
export const NAMESPACE = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  gemini: "google",
};

/** The dialect whose provider issued a signature, by providerOptions namespace (and back). */
const ORIGIN_NAMESPACE = { anthropic: "anthropic", gemini: "google", "openai-responses": "openai" };

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const ptr = (...segments) =>
  segments.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("");

function expectObject(value, path, what) {
  if (!isObject(value)) throw new NoCounterpart(`${what} is not a JSON object`, path);
  return value;
}

function expectKeys(obj, allowed, path, what) {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new NoCounterpart(
        `${what} member ${JSON.stringify(key)} has no AI SDK counterpart`,
        path + ptr(key),
      );
    }
  }
}

/** Put `value` at providerOptions[namespace][key] (returns the same object). */
function setOption(options, namespace, key, value) {
  if (value === undefined) return options;
  options[namespace] ??= {};
  options[namespace][key] = value;
  return options;
}

/**
 * canonical tools -> `{tools, names}`: a ToolSet (a record keyed by name, in source order) whose
 * entries are `tool({description?, inputSchema: jsonSchema(parameters), strict?})`. A tool without
 * parameters gets `{type: "object", properties: {}}` (the AI SDK requires an input schema).
 */
export function toToolSet(tools, path = "") {
  if (!Array.isArray(tools)) throw new NoCounterpart("the tool list is not a JSON array", path);
  const set = {};
  tools.forEach((t, i) => {
    const where = path + ptr(i);
    expectObject(t, where, "a tool");
    if (t.type !== undefined && t.type !== "function") {
      throw new NoCounterpart(
        `a ${JSON.stringify(t.type)} tool has no AI SDK function-tool form`,
        where + "/type",
      );
    }
    expectKeys(t, ["type", "name", "description", "parameters", "strict"], where, "a tool");
    if (typeof t.name !== "string" || t.name === "") {
      throw new NoCounterpart(
        "a ToolSet is keyed by name: a tool without a name cannot be given",
        where + "/name",
      );
    }
    if (Object.hasOwn(set, t.name)) {
      throw new NoCounterpart(
        "a ToolSet is keyed by name: a second tool of one name cannot be given",
        where + "/name",
      );
    }
    if (t.parameters !== undefined && !isObject(t.parameters)) {
      throw new NoCounterpart("jsonSchema() takes a JSON Schema object", where + "/parameters");
    }
    const def = { inputSchema: jsonSchema(t.parameters ?? { type: "object", properties: {} }) };
    if (t.description !== undefined) def.description = t.description;
    if (typeof t.strict === "boolean") def.strict = t.strict;
    set[t.name] = tool(def);
  });
  return set;
}

/**
 * canonical `{tool_choice?, parallel_tool_calls?}` -> `{toolChoice?, activeTools?}` and providerOptions.
 * `{mode, tools: [x]}` with mode required is `{type: "tool", toolName: x}`; a restriction to several
 * tools (or a named `auto`) has no tool-choice form (the AI SDK's `activeTools` filters the tool list).
 * `parallel_tool_calls` is `openai.parallelToolCalls` / `anthropic.disableParallelToolUse`; Google has
 * no such option.
 */
export function toToolChoice(fragment, target, toolNames, providerOptions, path = "") {
  const out = {};
  const choice = fragment.tool_choice;
  if (choice !== undefined && choice !== null) {
    const where = path + "/tool_choice";
    expectObject(choice, where, "tool_choice");
    expectKeys(choice, ["mode", "tools"], where, "tool_choice");
    const { mode, tools } = choice;
    if (!["auto", "none", "required"].includes(mode)) {
      throw new NoCounterpart(
        `tool_choice mode ${JSON.stringify(mode)} has no AI SDK counterpart`,
        where + "/mode",
      );
    }
    if (tools === undefined) {
      out.toolChoice = mode;
    } else {
      if (!Array.isArray(tools) || !tools.every((n) => typeof n === "string")) {
        throw new NoCounterpart("tool_choice.tools is not a list of names", where + "/tools");
      }
      const unknown = tools.find((n) => !toolNames.includes(n));
      if (unknown !== undefined) {
        throw new NoCounterpart(
          `tool_choice names ${JSON.stringify(unknown)}, which is not a tool`,
          where + "/tools",
        );
      }
      if (mode === "required" && tools.length === 1) {
        out.toolChoice = { type: "tool", toolName: tools[0] };
      } else {
        // The AI SDK restricts the callable tools with `activeTools`, which leaves the others out of the
        // request's tool list: a different request, not a tool-choice form to compare
        throw new NoCounterpart(
          "restricting the callable tools is activeTools, which filters the tool list",
          where + "/tools",
        );
      }
    }
  }
  const parallel = fragment.parallel_tool_calls;
  if (parallel !== undefined && parallel !== null) {
    if (typeof parallel !== "boolean")
      throw new NoCounterpart("parallel_tool_calls is not a boolean", path + "/parallel_tool_calls");
    const ns = NAMESPACE[target];
    if (ns === "openai") setOption(providerOptions, ns, "parallelToolCalls", parallel);
    else if (ns === "anthropic") setOption(providerOptions, ns, "disableParallelToolUse", !parallel);
    else if (parallel === false && choice?.mode !== "none") {
      // (with mode none no call can happen: the flag means nothing, and a user leaves it out)
      throw new NoCounterpart(
        "@ai-sdk/google has no option for parallel tool calls",
        path + "/parallel_tool_calls",
      );
    }
  }
  return out;
}

/** The providerOptions that carry a canonical signature (`origin` names its issuer; none: the target's). */
function signatureOptions(part, target, kind) {
  if (part.signature === undefined) return undefined;
  if (typeof part.signature !== "string") throw new NoCounterpart("a signature is not a string");
  const ns = part.origin !== undefined ? ORIGIN_NAMESPACE[part.origin] : NAMESPACE[target];
  if (ns === undefined) throw new NoCounterpart(`origin ${JSON.stringify(part.origin)} is no provider`);
  if (ns === "google") return { google: { thoughtSignature: part.signature } };
  if (ns === "anthropic" && kind === "reasoning") {
    return { anthropic: part.redacted ? { redactedData: part.signature } : { signature: part.signature } };
  }
  if (ns === "openai" && kind === "reasoning")
    return { openai: { reasoningEncryptedContent: part.signature } };
  return undefined; // no provider keeps a signature there (RULES.md: written only where it has a place)
}

function withItemId(options, part) {
  if (part.item_id === undefined) return options;
  const out = options ?? {};
  setOption(out, "openai", "itemId", part.item_id);
  return out;
}

function mediaData(part, where) {
  if (typeof part.data === "string") return part.data; // base64: DataContent takes it as is
  if (typeof part.url === "string") {
    try {
      return new URL(part.url);
    } catch {
      throw new NoCounterpart("not a URL", where + "/url");
    }
  }
  throw new NoCounterpart("a media part needs `data` or `url`", where);
}

function userPart(part, where, target) {
  expectObject(part, where, "a content part");
  switch (part.type) {
    case "text":
      expectKeys(part, ["type", "text"], where, "a user text part");
      return { type: "text", text: part.text };
    case "image": {
      expectKeys(part, ["type", "media_type", "data", "url"], where, "an image part");
      const out = { type: "image", image: mediaData(part, where) };
      if (part.media_type !== undefined) out.mediaType = part.media_type;
      return out;
    }
    case "document": {
      expectKeys(
        part,
        ["type", "media_type", "data", "url", "text", "title", "context", "citations"],
        where,
        "a document",
      );
      let data;
      if (typeof part.text === "string") data = new TextEncoder().encode(part.text);
      else data = mediaData(part, where);
      if (typeof part.media_type !== "string") {
        throw new NoCounterpart("an AI SDK file part needs a mediaType", where + "/media_type");
      }
      const out = { type: "file", data, mediaType: part.media_type };
      if (part.title !== undefined) out.filename = part.title;
      const options = {};
      if (part.context !== undefined) {
        if (NAMESPACE[target] !== "anthropic") {
          throw new NoCounterpart(
            "a document's context is an option of @ai-sdk/anthropic only",
            where + "/context",
          );
        }
        setOption(options, "anthropic", "context", part.context);
      }
      if (part.citations === true && NAMESPACE[target] === "anthropic") {
        setOption(options, "anthropic", "citations", { enabled: true });
      }
      if (Object.keys(options).length) out.providerOptions = options;
      return out;
    }
    default:
      throw new NoCounterpart(`a user ${JSON.stringify(part.type)} part has no AI SDK counterpart`, where);
  }
}

/** A canonical tool_result -> an AI SDK `tool-result` part (`output` text, json, error-*, or content). */
function toolResult(part, where, names) {
  expectKeys(part, ["type", "call_id", "name", "content", "is_error"], where, "a tool_result");
  if (typeof part.call_id !== "string")
    throw new NoCounterpart("a tool_result needs a call_id", where + "/call_id");
  const toolName = part.name ?? names.get(part.call_id);
  if (typeof toolName !== "string") {
    throw new NoCounterpart(
      "an AI SDK tool-result needs the tool's name, and no call names it",
      where + "/call_id",
    );
  }
  const content = part.content ?? [];
  if (!Array.isArray(content))
    throw new NoCounterpart("tool_result content is not a list", where + "/content");
  const error = part.is_error === true;
  let output;
  if (content.length === 1 && content[0]?.type === "text") {
    output = { type: error ? "error-text" : "text", value: content[0].text };
  } else if (content.length === 1 && content[0]?.type === "json") {
    output = { type: error ? "error-json" : "json", value: content[0].value };
  } else {
    if (error) {
      throw new NoCounterpart("an AI SDK error result is one text or one JSON value", where + "/is_error");
    }
    output = {
      type: "content",
      value: content.map((c, i) => {
        const at = where + ptr("content", i);
        if (c?.type === "text") return { type: "text", text: c.text };
        if (c?.type === "image" && typeof c.data === "string") {
          return { type: "image-data", data: c.data, mediaType: c.media_type };
        }
        if (c?.type === "image" && typeof c.url === "string") return { type: "image-url", url: c.url };
        throw new NoCounterpart(
          `a ${JSON.stringify(c?.type)} part among several has no AI SDK result form`,
          at,
        );
      }),
    };
  }
  return { type: "tool-result", toolCallId: part.call_id, toolName, output };
}

function assistantPart(part, where, target, names) {
  expectObject(part, where, "a content part");
  switch (part.type) {
    case "text": {
      expectKeys(part, ["type", "text", "signature", "origin"], where, "an assistant text part");
      const out = { type: "text", text: part.text };
      const options = signatureOptions(part, target, "text");
      if (options) out.providerOptions = options;
      return out;
    }
    case "thinking": {
      expectKeys(
        part,
        ["type", "text", "signature", "origin", "redacted", "item_id"],
        where,
        "a thinking part",
      );
      const out = { type: "reasoning", text: part.text };
      const options = withItemId(signatureOptions(part, target, "reasoning"), part);
      if (options) out.providerOptions = options;
      return out;
    }
    case "tool_call": {
      expectKeys(
        part,
        ["type", "id", "name", "arguments", "signature", "origin", "item_id"],
        where,
        "a tool_call",
      );
      if (part.arguments === undefined) {
        throw new NoCounterpart("a call without JSON arguments (custom or raw) has no AI SDK form", where);
      }
      names.set(part.id, part.name);
      const out = { type: "tool-call", toolCallId: part.id, toolName: part.name, input: part.arguments };
      const options = withItemId(signatureOptions(part, target, "tool-call"), part);
      if (options) out.providerOptions = options;
      return out;
    }
    default:
      throw new NoCounterpart(
        `an assistant ${JSON.stringify(part.type)} part has no AI SDK counterpart`,
        where,
      );
  }
}

/**
 * canonical messages -> ModelMessages. A user message's tool results become one `tool` message before
 * the `user` message holding its other parts; an assistant message is one `assistant` message.
 */
export function toModelMessages(messages, target, path = "/messages") {
  if (!Array.isArray(messages)) throw new NoCounterpart("messages is not a list", path);
  const out = [];
  const names = new Map(); // call id -> tool name, from the calls seen so far
  messages.forEach((m, i) => {
    const where = path + ptr(i);
    expectObject(m, where, "a message");
    expectKeys(m, ["role", "content"], where, "a message");
    if (!Array.isArray(m.content))
      throw new NoCounterpart("message content is not a list", where + "/content");
    if (m.role === "user") {
      const results = [];
      const parts = [];
      m.content.forEach((p, j) => {
        const at = where + ptr("content", j);
        if (p?.type === "tool_result") results.push(toolResult(p, at, names));
        else parts.push(userPart(p, at, target));
      });
      if (results.length) out.push({ role: "tool", content: results });
      if (parts.length || !results.length) out.push({ role: "user", content: parts });
    } else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content: m.content.map((p, j) => assistantPart(p, where + ptr("content", j), target, names)),
      });
    } else {
      throw new NoCounterpart(`role ${JSON.stringify(m.role)} has no AI SDK message`, where + "/role");
    }
  });
  return out;
}

/** canonical system parts -> system ModelMessages, one per part (the `system` option takes a list). */
export function toSystem(system, path = "/system") {
  if (!Array.isArray(system)) throw new NoCounterpart("system is not a list", path);
  return system.map((p, i) => {
    const where = path + ptr(i);
    expectObject(p, where, "a system part");
    expectKeys(p, ["type", "text"], where, "a system part");
    if (p.type !== "text") throw new NoCounterpart("a system part is text", where + "/type");
    return { role: "system", content: p.text };
  });
}

/** canonical `reasoning` -> the providerOptions of the target's provider package. */
function reasoningOptions(reasoning, target, providerOptions, path) {
  expectObject(reasoning, path, "reasoning");
  expectKeys(reasoning, ["effort", "budget_tokens", "summary"], path, "reasoning");
  const { effort, budget_tokens: budget, summary } = reasoning;
  const ns = NAMESPACE[target];
  if (ns === "openai") {
    if (budget !== undefined) {
      throw new NoCounterpart(
        "@ai-sdk/openai takes a reasoning effort, not a budget",
        path + "/budget_tokens",
      );
    }
    setOption(providerOptions, ns, "reasoningEffort", effort);
    if (target === "openai-responses") setOption(providerOptions, ns, "reasoningSummary", summary);
  } else if (ns === "anthropic") {
    if (effort === "none") setOption(providerOptions, ns, "thinking", { type: "disabled" });
    else if (effort !== undefined) {
      throw new NoCounterpart(
        "@ai-sdk/anthropic's thinking takes a budget, not an effort level",
        path + "/effort",
      );
    } else if (budget !== undefined)
      setOption(providerOptions, ns, "thinking", { type: "enabled", budgetTokens: budget });
    else setOption(providerOptions, ns, "thinking", { type: "adaptive" });
  } else {
    const config = {};
    if (budget !== undefined) config.thinkingBudget = budget;
    if (effort === "none") config.thinkingBudget = 0;
    else if (effort !== undefined) config.thinkingLevel = effort;
    if (summary !== undefined) config.includeThoughts = true;
    setOption(providerOptions, ns, "thinkingConfig", config);
  }
}

const REQUEST_MEMBERS = [
  "model",
  "system",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_tokens",
  "temperature",
  "top_p",
  "top_k",
  "stop",
  "response_format",
  "stream",
  "reasoning",
  "verbosity",
];

/**
 * A whole canonical request -> the options of `generateText` / `streamText` (without `model`, which the
 * harness makes from `modelId` with the target's provider package).
 */
export function toCallOptions(request, target) {
  expectObject(request, "", "a canonical request");
  expectKeys(request, REQUEST_MEMBERS, "", "a canonical request");
  const providerOptions = {};
  const options = { messages: toModelMessages(request.messages ?? [], target) };
  if (request.system !== undefined) options.system = toSystem(request.system);
  if (request.tools !== undefined) options.tools = toToolSet(request.tools, "/tools");
  Object.assign(options, toToolChoice(request, target, Object.keys(options.tools ?? {}), providerOptions));
  const settings = {
    max_tokens: "maxOutputTokens",
    temperature: "temperature",
    top_p: "topP",
    top_k: "topK",
    stop: "stopSequences",
  };
  for (const [member, name] of Object.entries(settings)) {
    if (request[member] !== undefined && request[member] !== null) options[name] = request[member];
  }
  const format = request.response_format;
  if (format !== undefined && format !== null) {
    expectObject(format, "/response_format", "response_format");
    if (format.type === "json") {
      expectKeys(format, ["type"], "/response_format", "response_format");
      options.output = Output.json();
    } else if (format.type === "json_schema") {
      expectKeys(format, ["type", "name", "schema", "strict"], "/response_format", "response_format");
      const spec = { schema: jsonSchema(format.schema ?? {}) };
      if (format.name !== undefined) spec.name = format.name;
      options.output = Output.object(spec);
      // strictJsonSchema is @ai-sdk/openai's; the other targets have no strict flag (RULES.md: lossy there)
      if (typeof format.strict === "boolean" && NAMESPACE[target] === "openai") {
        setOption(providerOptions, "openai", "strictJsonSchema", format.strict);
      }
    } else {
      throw new NoCounterpart("response_format type has no AI SDK output", "/response_format/type");
    }
  }
  if (request.reasoning !== undefined && request.reasoning !== null) {
    reasoningOptions(request.reasoning, target, providerOptions, "/reasoning");
  }
  // textVerbosity is @ai-sdk/openai's; RULES.md drops verbosity silently for the other targets
  if (request.verbosity !== undefined && request.verbosity !== null && NAMESPACE[target] === "openai") {
    setOption(providerOptions, "openai", "textVerbosity", request.verbosity);
  }
  if (Object.keys(providerOptions).length) options.providerOptions = providerOptions;
  return { modelId: request.model, stream: request.stream === true, options };
}
