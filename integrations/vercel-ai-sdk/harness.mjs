#!/usr/bin/env node
// toolwire harness for the Vercel AI SDK (`ai` + `@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`):
// speaks protocol 1 (docs/protocol.md) on stdin/stdout. Run from the repository root after
// `make aisdk-install`:
//
//   toolwire run --adapter "cmd:node integrations/vercel-ai-sdk/harness.mjs" --name vercel-ai-sdk
//
// The AI SDK translates from its own neutral model to each provider, as toolwire's `canonical` dialect
// does, so requests go canonical -> provider and responses and streams provider -> canonical. README.md
// says how each side is mapped and what is not declared.

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

import { DEFAULT_MODEL } from "./lib/providers.mjs";
import { Refusal, StreamTranslation, translate } from "./lib/translate.mjs";

const PROTOCOL = 1;
const PROVIDERS = Object.keys(DEFAULT_MODEL);
const HERE = new URL(".", import.meta.url);

function installedVersion(pkg) {
  const text = readFileSync(new URL(`node_modules/${pkg}/package.json`, HERE), "utf8");
  return JSON.parse(text).version;
}

/** What the harness declares: requests canonical -> provider, responses and streams provider -> canonical. */
export function capabilities() {
  const out = PROVIDERS.map((p) => ["canonical", p]);
  const back = PROVIDERS.map((p) => [p, "canonical"]);
  return {
    kinds: { tools: out, tool_choice: out, request: out, response: back, stream: back },
    // arguments.invalid: the SDK marks a call whose input it cannot parse `invalid` and keeps the raw text
    // stream.thinking: fullStream yields reasoning parts; a client keeps or drops them
    // results.error-flag: an `error-text` output reaches OpenAI as the bare text: the SDK's policy is drop
    // (OpenAI has no error flag), so the text-prefix default is not the SDK's to follow
    profiles: {
      "arguments.invalid": ["error", "preserve"],
      "stream.thinking": ["drop", "keep"],
      "results.error-flag": ["drop"],
    },
    error_codes: "own",
  };
}

function hello() {
  const components = Object.fromEntries(
    ["ai", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google"].map((p) => [p, installedVersion(p)]),
  );
  return {
    protocol: PROTOCOL,
    implementation: {
      name: "vercel-ai-sdk",
      version: components.ai,
      language: "typescript",
      homepage: "https://ai-sdk.dev",
      components,
      capabilities: capabilities(),
    },
  };
}

function errorAnswer(err) {
  if (err instanceof Refusal)
    return { error: { code: err.code, message: err.message, path: err.path ?? null } };
  return { crash: String(err && err.stack ? err.stack : err) };
}

const streams = new Map(); // seq -> StreamTranslation

async function handle(message) {
  const { cmd, seq } = message;
  if (cmd === "hello") return hello();
  if (cmd === "translate") {
    try {
      const payload = await translate(
        message.kind,
        message.source,
        message.target,
        message.payload,
        message.profile,
      );
      return { seq, payload };
    } catch (err) {
      return { seq, ...errorAnswer(err) };
    }
  }
  if (cmd === "stream") {
    let stream = streams.get(seq);
    try {
      if (!stream) {
        stream = new StreamTranslation(message.source, message.event ?? null, message.profile ?? {});
        streams.set(seq, stream);
      }
      let events;
      if (message.end) {
        events = await stream.end();
        streams.delete(seq);
      } else {
        events = await stream.feed(message.event);
      }
      return { seq, events };
    } catch (err) {
      streams.delete(seq);
      return { seq, ...errorAnswer(err) };
    }
  }
  return {
    seq,
    error: { code: "protocol.bad_request", message: `unknown command ${cmd}`, path: null },
  };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on("line", (line) => {
  if (!line.trim()) return;
  queue = queue.then(async () => {
    let message;
    try {
      message = JSON.parse(line);
    } catch (err) {
      console.error(`vercel-ai-sdk harness: ignoring a line that is not JSON: ${err.message}`);
      return;
    }
    if (message.cmd === "bye") process.exit(0);
    const reply = await handle(message);
    if (message.id !== undefined) reply.id = message.id;
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
});
lines.on("close", () => queue.then(() => process.exit(0)));
