// The provider package behind each target dialect, created as a user would (`createOpenAI({fetch,
// apiKey})` etc.) with the fake upstream's fetch, and what of a recorded request body each kind keeps.

import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";

/** The dialects the harness drives, with the model a request that names none is sent to. */
export const DEFAULT_MODEL = {
  "openai-chat": "gpt-4.1",
  "openai-responses": "gpt-4.1",
  anthropic: "claude-sonnet-4-5",
  gemini: "gemini-2.5-flash",
};

/** The request members that carry the tool choice, per target (the `tool_choice` kind keeps these). */
export const CHOICE_MEMBERS = {
  "openai-chat": ["tool_choice", "parallel_tool_calls"],
  "openai-responses": ["tool_choice", "parallel_tool_calls"],
  anthropic: ["tool_choice"],
  gemini: ["toolConfig"],
};

const API_KEY = "toolwire-offline"; // the fake upstream never checks it, and nothing stores it

/** The AI SDK language model for `dialect`, talking to `fetch`. */
export function languageModel(dialect, modelId, fetch) {
  const id = typeof modelId === "string" && modelId !== "" ? modelId : DEFAULT_MODEL[dialect];
  switch (dialect) {
    case "openai-chat":
      return createOpenAI({ apiKey: API_KEY, fetch }).chat(id);
    case "openai-responses":
      return createOpenAI({ apiKey: API_KEY, fetch }).responses(id);
    case "anthropic":
      return createAnthropic({ apiKey: API_KEY, fetch })(id);
    case "gemini":
      return createGoogleGenerativeAI({ apiKey: API_KEY, fetch })(id);
    default:
      throw new Error(`no AI SDK provider for ${dialect}`);
  }
}

/**
 * The model a provider's response body (or the first event of a stream) says answered, so that the
 * request the response kinds make names it (a response's model is otherwise the requested one).
 */
export function answeredModel(payload) {
  const items = Array.isArray(payload) ? payload.slice(0, 1) : [{ data: payload }];
  for (const item of items) {
    const data = item && typeof item === "object" ? item.data : undefined;
    if (!data || typeof data !== "object") continue;
    for (const holder of [data, data.message, data.response]) {
      const model = holder && typeof holder === "object" ? (holder.model ?? holder.modelVersion) : undefined;
      if (typeof model === "string" && model !== "") return model;
    }
  }
  return undefined;
}
