// Preloaded into copilot-api (`node --import offline.mjs …/copilot-api/dist/main.js start`) so that it runs
// offline against toolwire's mock upstream. copilot-api 0.7.0 has no setting for its upstream: it calls
// fixed https URLs with the global fetch (dist/main.js: copilotBaseUrl, GITHUB_API_BASE_URL,
// getVSCodeVersion). This module replaces globalThis.fetch before main.js runs:
// - https://api.githubcopilot.com/chat/completions (the only translated call) goes to
//   $TW_UPSTREAM/v1/chat/completions, the mock's OpenAI Chat path, with copilot-api's own headers and body;
// - the GitHub token exchange (api.github.com/copilot_internal/v2/token) answers the fixed token
//   $TW_COPILOT_TOKEN (the recipe lists it in `secrets`), valid for a day, so it is never refreshed;
// - the model list (api.githubcopilot.com/models) answers one model, toolwire-model;
// - the VS Code version lookup (aur.archlinux.org) answers copilot-api's own fallback version;
// - any other address but 127.0.0.1 is refused: nothing leaves the machine.
// Nothing here changes a request or a response that copilot-api translates.

const realFetch = globalThis.fetch;
const upstream = process.env.TW_UPSTREAM;
const copilotToken = process.env.TW_COPILOT_TOKEN;
if (!upstream || !copilotToken) {
  throw new Error("offline.mjs: TW_UPSTREAM and TW_COPILOT_TOKEN must be set (see the recipe)");
}

const MODEL = {
  id: "toolwire-model",
  name: "toolwire-model",
  object: "model",
  vendor: "toolwire",
  version: "toolwire-model",
  preview: false,
  model_picker_enabled: true,
  capabilities: {
    family: "toolwire-model",
    object: "model_capabilities",
    type: "chat",
    tokenizer: "o200k_base",
    limits: { max_context_window_tokens: 128000, max_output_tokens: 4096, max_prompt_tokens: 128000 },
    supports: { tool_calls: true, parallel_tool_calls: true, streaming: true },
  },
};

function json(body) {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

function urlOf(input) {
  if (typeof input === "string") return new URL(input);
  if (input instanceof URL) return input;
  return new URL(input.url);
}

globalThis.fetch = async (input, init) => {
  const url = urlOf(input);
  if (url.hostname === "api.githubcopilot.com") {
    if (url.pathname === "/models") return json({ object: "list", data: [MODEL] });
    return realFetch(`${upstream}/v1${url.pathname}${url.search}`, init);
  }
  if (url.hostname === "api.github.com" && url.pathname === "/copilot_internal/v2/token") {
    const now = Math.floor(Date.now() / 1000);
    return json({ token: copilotToken, expires_at: now + 86400, refresh_in: 86400 });
  }
  if (url.hostname === "aur.archlinux.org") return new Response("pkgver=1.104.3\n");
  if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return realFetch(input, init);
  throw new TypeError(`offline.mjs: refused ${url.origin}: copilot-api runs offline under toolwire`);
};
