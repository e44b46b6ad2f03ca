// The AI SDK's results -> canonical: a `generateText` result (content parts, finishReason, usage,
// response metadata) -> a canonical response, and `streamText`'s fullStream parts -> canonical stream
// events. Pure: the harness hands over what the SDK returned; nothing here reads the provider's wire.

/** Where a signature lives in providerMetadata, and the dialect that issued it. */
const SIGNATURES = [
  ["google", "thoughtSignature", "gemini"],
  ["anthropic", "signature", "anthropic"],
  ["anthropic", "redactedData", "anthropic"],
  ["openai", "reasoningEncryptedContent", "openai-responses"],
];

/** The AI SDK's unified finish reason -> canonical stop_reason (its six values; nothing finer). */
export const STOP_REASONS = {
  stop: "end_turn",
  length: "max_tokens",
  "content-filter": "content_filter",
  "tool-calls": "tool_use",
  error: "error",
  other: "other",
};

/** A refusal the SDK made about its own result (an invalid tool call), for the harness to answer. */
export class ResultRefusal extends Error {
  constructor(code, message) {
    super(message);
    this.name = "ResultRefusal";
    this.code = code;
  }
}

function signatureOf(metadata) {
  for (const [ns, key, origin] of SIGNATURES) {
    const value = metadata?.[ns]?.[key];
    if (typeof value === "string" && value !== "") return { signature: value, origin };
  }
  return null;
}

/** The AI SDK's usage -> canonical usage (totals include cached input and reasoning), or undefined. */
export function toUsage(usage) {
  if (!usage) return undefined;
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  if (input === undefined && output === undefined) return undefined;
  const out = { input_tokens: input ?? 0, output_tokens: output ?? 0 };
  const cached = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens;
  if (cached !== undefined) out.cached_input_tokens = cached;
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens;
  if (reasoning !== undefined) out.reasoning_tokens = reasoning;
  return out;
}

/**
 * A tool call the SDK marked invalid (its input is not JSON it could parse) -> under
 * `arguments.invalid=preserve` the raw text as `arguments_raw`, else a refusal.
 */
function callArguments(part, profile) {
  if (!part.invalid) return { arguments: part.input };
  const name = part.error?.name ?? "";
  if (name === "AI_InvalidToolInputError" || typeof part.input === "string") {
    if (profile["arguments.invalid"] === "preserve" && typeof part.input === "string") {
      return { arguments_raw: part.input };
    }
    throw new ResultRefusal(
      "call.invalid_arguments",
      `the AI SDK marked tool call ${part.toolCallId} invalid: ${part.error?.message ?? "unparsable input"}`,
    );
  }
  return { arguments: part.input }; // invalid for another reason (no such tool): the call is still read
}

function toolCall(part, profile) {
  const out = { type: "tool_call", id: part.toolCallId, name: part.toolName, ...callArguments(part, profile) };
  const sig = signatureOf(part.providerMetadata);
  if (sig) Object.assign(out, sig);
  const itemId = part.providerMetadata?.openai?.itemId;
  if (typeof itemId === "string") out.item_id = itemId;
  return out;
}

/** A `generateText` result -> a canonical response. */
export function toCanonicalResponse(result, profile = {}) {
  const content = [];
  for (const part of result.content) {
    if (part.type === "text") {
      if (part.text === "") continue;
      const out = { type: "text", text: part.text };
      const sig = signatureOf(part.providerMetadata);
      if (sig) Object.assign(out, sig);
      content.push(out);
    } else if (part.type === "reasoning") {
      const out = { type: "thinking", text: part.text };
      const sig = signatureOf(part.providerMetadata);
      if (sig) Object.assign(out, sig);
      content.push(out);
    } else if (part.type === "tool-call") {
      content.push(toolCall(part, profile));
    }
    // tool-error parts repeat an invalid tool-call; sources, files and tool results have no canonical part
  }
  const out = { content, stop_reason: STOP_REASONS[result.finishReason] ?? "other" };
  if (result.response?.id) out.id = result.response.id;
  if (result.response?.modelId) out.model = result.response.modelId;
  const usage = toUsage(result.usage);
  if (usage) out.usage = usage;
  return out;
}

/**
 * streamText's fullStream parts -> canonical stream events, one part at a time (`push` returns the
 * events that part makes). Blocks are numbered in the order they open; a block opens with its first
 * delta (a text or reasoning block with no text is no block).
 */
export class StreamMapper {
  constructor(profile = {}) {
    this.profile = profile;
    this.next = 0;
    this.blocks = new Map(); // SDK part id -> {index|null, kind}
    this.started = false;
    this.ended = false;
  }

  start(events) {
    if (!this.started) {
      this.started = true;
      events.push({ data: { type: "message_start" } });
    }
  }

  open(id, kind) {
    const block = this.blocks.get(id) ?? { index: null, kind };
    if (block.index === null) block.index = this.next++;
    this.blocks.set(id, block);
    return block.index;
  }

  close(id, events) {
    const block = this.blocks.get(id);
    if (block && block.index !== null && !block.closed) {
      block.closed = true;
      events.push({ data: { type: "block_end", index: block.index } });
    }
  }

  /** The canonical events made by one fullStream part. */
  push(part) {
    const events = [];
    if (this.ended) return events;
    // stream.thinking=drop (the default): a client that shows no reasoning skips the reasoning parts
    const dropThinking = (this.profile["stream.thinking"] ?? "drop") === "drop";
    if (dropThinking && part.type.startsWith("reasoning-")) return events;
    switch (part.type) {
      case "start":
      case "start-step":
        this.start(events);
        break;
      case "text-start":
      case "reasoning-start":
        this.start(events);
        this.blocks.set(part.id, { index: null, kind: part.type === "text-start" ? "text" : "thinking" });
        break;
      case "text-delta":
      case "reasoning-delta": {
        this.start(events);
        const kind = part.type === "text-delta" ? "text_delta" : "thinking_delta";
        const sig = signatureOf(part.providerMetadata);
        if (part.text === "" && !sig) break;
        const data = { type: kind, index: this.open(part.id, kind), text: part.text };
        if (sig) Object.assign(data, sig);
        events.push({ data });
        break;
      }
      case "text-end":
      case "reasoning-end": {
        const sig = signatureOf(part.providerMetadata);
        const block = this.blocks.get(part.id);
        if (sig && block && block.index !== null) {
          const kind = block.kind === "text" ? "text_delta" : "thinking_delta";
          events.push({ data: { type: kind, index: block.index, text: "", ...sig } });
        }
        this.close(part.id, events);
        break;
      }
      case "tool-input-start": {
        this.start(events);
        const data = { type: "tool_call_start", index: this.open(part.id, "tool"), id: part.id, name: part.toolName };
        const sig = signatureOf(part.providerMetadata);
        if (sig) Object.assign(data, sig);
        events.push({ data });
        break;
      }
      case "tool-input-delta": {
        const block = this.blocks.get(part.id);
        if (block && part.delta !== "") {
          events.push({ data: { type: "tool_call_delta", index: block.index, arguments: part.delta } });
        }
        break;
      }
      case "tool-input-end":
        this.close(part.id, events);
        break;
      case "tool-call": {
        this.start(events);
        const block = this.blocks.get(part.toolCallId);
        const args = callArguments(part, this.profile);
        if (!block) {
          // a call the provider package delivered whole: start, its arguments, end
          const index = this.open(part.toolCallId, "tool");
          const data = { type: "tool_call_start", index, id: part.toolCallId, name: part.toolName };
          const sig = signatureOf(part.providerMetadata);
          if (sig) Object.assign(data, sig);
          events.push({ data });
          const text = "arguments_raw" in args ? args.arguments_raw : JSON.stringify(args.arguments);
          events.push({ data: { type: "tool_call_delta", index, arguments: text } });
        }
        this.close(part.toolCallId, events);
        break;
      }
      case "finish": {
        this.start(events);
        for (const id of this.blocks.keys()) this.close(id, events);
        const data = { type: "message_end", stop_reason: STOP_REASONS[part.finishReason] ?? "other" };
        const usage = toUsage(part.totalUsage);
        if (usage) data.usage = usage;
        events.push({ data });
        this.ended = true;
        break;
      }
      case "error": {
        const err = part.error;
        const code = String(err?.type ?? err?.code ?? err?.status ?? err?.name ?? "error");
        const message = String(err?.message ?? err);
        events.push({ data: { type: "error", error: { code, message } } });
        this.ended = true;
        break;
      }
      default:
        // finish-step (its totals repeat in finish), raw, source, file, abort: nothing canonical
        break;
    }
    return events;
  }
}
