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

/** The AI SDK's unified finish reason -> canonical stop_reason (its six values). */
export const STOP_REASONS = {
  stop: "end_turn",
  length: "max_tokens",
  "content-filter": "content_filter",
  "tool-calls": "tool_use",
  error: "error",
  other: "other",
};

/**
 * Canonical reasons finer than the unified one, told apart by the `rawFinishReason` the SDK returns next
 * to it (the provider's own value). Only ever a choice inside the bucket the SDK picked: where the SDK
 * chose another unified reason, that choice stands.
 */
const REFINED = {
  end_turn: { stop_sequence: "stop_sequence", pause_turn: "pause_turn" },
  max_tokens: { model_context_window_exceeded: "context_window_exceeded" },
  // content-filter the SDK derived from a refusal (Anthropic `refusal`; OpenAI chat `stop` or a
  // Responses answer without incomplete_details, each with a refusal part)
  content_filter: { refusal: "refusal", stop: "refusal", "": "refusal" },
  error: { MALFORMED_FUNCTION_CALL: "malformed_tool_call" },
};

/** The canonical stop_reason of a finishReason and its rawFinishReason. */
export function stopReason(finishReason, raw) {
  const base = STOP_REASONS[finishReason] ?? "other";
  return REFINED[base]?.[raw ?? ""] ?? base;
}

/**
 * The canonical code of an error a stream part carries: the provider's, as the SDK kept it (the error
 * itself, or the provider's error body in an APICallError's `data`): a Gemini `status`, else an OpenAI
 * `code`, else an Anthropic `type`.
 */
export function errorCode(err) {
  const data = err?.data?.error ?? err?.data?.response?.error ?? err?.data;
  const candidates = [data?.status, data?.code, data?.type, err?.code, err?.type];
  const text = candidates.find((v) => typeof v === "string" && v !== "" && v !== "error");
  if (text !== undefined) return text;
  const number = [...candidates, err?.statusCode].find((v) => typeof v === "number");
  return number !== undefined ? String(number) : String(err?.name ?? "error");
}

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

function toolCall(part, profile, custom) {
  const isCustom = custom && !part.invalid && typeof part.input === "string";
  const fields = isCustom ? { input: part.input } : callArguments(part, profile);
  const out = { type: "tool_call", id: part.toolCallId, name: part.toolName, ...fields };
  const sig = signatureOf(part.providerMetadata);
  if (sig) Object.assign(out, sig);
  const itemId = part.providerMetadata?.openai?.itemId;
  if (typeof itemId === "string") out.item_id = itemId;
  return out;
}

/**
 * A `generateText` result -> a canonical response. `custom`: calls whose input the SDK hands over as a
 * string are custom (free-form) calls (@ai-sdk/openai reads a Responses `custom_tool_call` so).
 */
export function toCanonicalResponse(result, profile = {}, custom = false) {
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
      content.push(toolCall(part, profile, custom));
    }
    // tool-error parts repeat an invalid tool-call; sources, files and tool results have no canonical part
  }
  const out = { content, stop_reason: stopReason(result.finishReason, result.rawFinishReason) };
  if (result.response?.id) out.id = result.response.id;
  if (result.response?.modelId) out.model = result.response.modelId;
  const stopSequence = result.providerMetadata?.anthropic?.stopSequence;
  if (typeof stopSequence === "string") out.stop_sequence = stopSequence;
  const usage = toUsage(result.usage);
  if (usage) out.usage = usage;
  return out;
}

/** Whether `text` is one whole JSON value. */
function isWholeJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The fullStream parts that write to a block. */
const BLOCK_PARTS = new Set([
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
  "tool-call",
]);

/** The canonical delta member of a whole call's input (`arguments` text, or a custom call's `input`). */
function wholeDelta(part, custom, profile) {
  if (custom) return { input: part.input };
  const args = callArguments(part, profile);
  return { arguments: "arguments_raw" in args ? args.arguments_raw : JSON.stringify(args.arguments) };
}

/**
 * streamText's fullStream parts -> canonical stream events, one part at a time (`push` returns the
 * events that part makes). Canonical blocks are numbered in the order they open; tool-call blocks may
 * be open together, a text or thinking block only alone (corpus/RULES.md, "Streams"). So a text or
 * thinking block opens with its first delta (a part with no text is no block) and is closed when
 * another block opens (more text of the same SDK part continues in a new block); a tool call's block is
 * closed when the SDK ends its input, or earlier when its argument text is a whole JSON value and text
 * follows (the SDK ends an OpenAI chat call's input only when the stream ends). Text that comes while a
 * call's arguments are still incomplete waits for the call to end.
 */
export class StreamMapper {
  constructor(profile = {}, custom = false) {
    this.profile = profile;
    this.custom = custom;
    this.next = 0;
    this.parts = new Map(); // SDK part id -> {index|null, kind: "text"|"thinking"|"tool", custom, text, sent}
    this.open = new Set(); // SDK part ids whose canonical block is open
    this.held = []; // text and reasoning parts waiting for open calls to end
    this.started = false;
    this.ended = false;
    this.stopSequence = undefined;
  }

  start(events) {
    if (!this.started) {
      this.started = true;
      events.push({ data: { type: "message_start" } });
    }
  }

  close(id, events) {
    if (!this.open.has(id)) return;
    const part = this.parts.get(id);
    events.push({ data: { type: "block_end", index: part.index } });
    part.index = null;
    this.open.delete(id);
  }

  /** Close the open text or thinking block (if any). */
  closeText(events) {
    for (const id of this.open) if (this.parts.get(id).kind !== "tool") this.close(id, events);
  }

  /** Open a block for SDK part `id`; `opening` is the event that opens a tool-call block. */
  openBlock(id, kind, events, opening = undefined) {
    const part = this.parts.get(id) ?? { index: null, kind };
    this.parts.set(id, part);
    if (this.open.has(id)) return part.index;
    this.closeText(events);
    part.index = this.next++;
    this.open.add(id);
    if (opening) events.push({ data: { ...opening, index: part.index } });
    return part.index;
  }

  /**
   * Whether a text or reasoning part must wait: a call's block is open with incomplete arguments.
   * Calls whose argument text is whole are closed (their block is done) on the way.
   */
  mustWait(part, events) {
    if (!["text-delta", "reasoning-delta", "text-end", "reasoning-end"].includes(part.type)) return false;
    for (const id of [...this.open]) {
      const open = this.parts.get(id);
      if (open.kind !== "tool") continue;
      if (!open.custom && open.sent && isWholeJson(open.text)) {
        open.done = true;
        this.close(id, events);
      } else {
        return true;
      }
    }
    return false;
  }

  /** The canonical events made by one fullStream part. */
  push(part) {
    const events = [];
    if (this.ended) return events;
    // stream.thinking=drop (the default): a client that shows no reasoning skips the reasoning parts
    const dropThinking = (this.profile["stream.thinking"] ?? "drop") === "drop";
    if (dropThinking && part.type.startsWith("reasoning-")) return events;
    // parts of an open call never wait (its arguments are what the waiting text waits for); the
    // others keep their order behind a part that waits
    const ofOpenCall = this.open.has(part.type === "tool-call" ? part.toolCallId : part.id);
    if (BLOCK_PARTS.has(part.type) && !ofOpenCall && (this.held.length || this.mustWait(part, events))) {
      this.held.push(part);
      return events;
    }
    this.handle(part, events);
    this.release(events);
    return events;
  }

  /** Send the held parts, in order, while they need not wait. */
  release(events) {
    while (this.held.length && !this.ended && !this.mustWait(this.held[0], events)) {
      this.handle(this.held.shift(), events);
    }
  }

  handle(part, events) {
    switch (part.type) {
      case "start":
      case "start-step":
      case "text-start":
      case "reasoning-start":
        this.start(events);
        break;
      case "text-delta":
      case "reasoning-delta": {
        this.start(events);
        const kind = part.type === "text-delta" ? "text" : "thinking";
        const sig = signatureOf(part.providerMetadata);
        if (part.text === "" && !sig) break;
        const data = { type: `${kind}_delta`, index: this.openBlock(part.id, kind, events), text: part.text };
        if (sig) Object.assign(data, sig);
        events.push({ data });
        break;
      }
      case "text-end":
      case "reasoning-end": {
        const sig = signatureOf(part.providerMetadata);
        if (sig) {
          // a signature that comes with the end (a Responses reasoning item's encrypted content)
          const kind = part.type === "text-end" ? "text" : "thinking";
          events.push({
            data: { type: `${kind}_delta`, index: this.openBlock(part.id, kind, events), text: "", ...sig },
          });
        }
        this.close(part.id, events);
        this.parts.delete(part.id);
        break;
      }
      case "tool-input-start": {
        this.start(events);
        const custom = part.inputEncoding === "text";
        const opening = { type: "tool_call_start", id: part.id, name: part.toolName };
        if (custom) opening.custom = true;
        const sig = signatureOf(part.providerMetadata);
        if (sig) Object.assign(opening, sig);
        this.openBlock(part.id, "tool", events, opening);
        Object.assign(this.parts.get(part.id), { custom, text: "", sent: false });
        break;
      }
      case "tool-input-delta": {
        const known = this.parts.get(part.id);
        if (!known || part.delta === "") break;
        if (known.done) {
          if (part.delta.trim() === "") break;
          throw new Error(`the harness closed call ${part.id} as complete, and more input came for it`);
        }
        known.text += part.delta;
        known.sent = true;
        const member = known.custom ? "input" : "arguments";
        events.push({ data: { type: "tool_call_delta", index: known.index, [member]: part.delta } });
        break;
      }
      case "tool-input-end":
        // a call whose input came in no delta stays open for the `tool-call` part that carries it
        if (this.parts.get(part.id)?.sent) this.close(part.id, events);
        break;
      case "tool-call": {
        this.start(events);
        const known = this.parts.get(part.toolCallId);
        const custom = known?.custom ?? (this.custom && !part.invalid && typeof part.input === "string");
        if (!known) {
          // a call the provider package delivered whole: start, its arguments, end
          const opening = { type: "tool_call_start", id: part.toolCallId, name: part.toolName };
          if (custom) opening.custom = true;
          const sig = signatureOf(part.providerMetadata);
          if (sig) Object.assign(opening, sig);
          const index = this.openBlock(part.toolCallId, "tool", events, opening);
          events.push({
            data: { type: "tool_call_delta", index, ...wholeDelta(part, custom, this.profile) },
          });
        } else if (!known.sent && this.open.has(part.toolCallId)) {
          // started, but its input came only with the call (a Responses `.done` without deltas)
          events.push({
            data: { type: "tool_call_delta", index: known.index, ...wholeDelta(part, custom, this.profile) },
          });
        }
        // (a streamed call's argument text went out as it came: canonical streams carry it unparsed)
        this.close(part.toolCallId, events);
        this.parts.delete(part.toolCallId);
        break;
      }
      case "finish-step": {
        const stopSequence = part.providerMetadata?.anthropic?.stopSequence;
        if (typeof stopSequence === "string") this.stopSequence = stopSequence;
        break;
      }
      case "finish": {
        this.start(events);
        // every input has ended: the calls are done, and what waited goes out
        for (const id of [...this.open]) this.close(id, events);
        for (const next of this.held.splice(0)) this.handle(next, events);
        for (const id of [...this.open]) this.close(id, events);
        const data = {
          type: "message_end",
          stop_reason: stopReason(part.finishReason, part.rawFinishReason),
        };
        if (this.stopSequence !== undefined) data.stop_sequence = this.stopSequence;
        const usage = toUsage(part.totalUsage);
        if (usage) data.usage = usage;
        events.push({ data });
        this.ended = true;
        break;
      }
      case "error": {
        const err = part.error;
        events.push({
          data: { type: "error", error: { code: errorCode(err), message: String(err?.message ?? err) } },
        });
        this.ended = true;
        break;
      }
      default:
        // raw, source, file, abort, tool results and errors: nothing canonical
        break;
    }
  }
}
