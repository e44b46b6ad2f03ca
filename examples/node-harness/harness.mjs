#!/usr/bin/env node
// A toolwire harness in Node.js (no dependencies): speaks the subprocess protocol of docs/protocol.md
// on stdin/stdout and implements one translation, `tools` canonical -> openai-chat, under the default
// profile only (`openai.strict=as-is`: the schema passes unchanged). It declares exactly that, so every
// other check is not applicable to it (skipped), never failed.
//
//   toolwire run --adapter "cmd:node examples/node-harness/harness.mjs"

import { createInterface } from "node:readline";

const PROTOCOL = 1;
const NAME = /^[A-Za-z0-9_-]{1,64}$/; // OpenAI's function-name rule
const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
// keywords whose value is a schema, a list of schemas, or a map of schemas
const SCHEMA_KEYS = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"];
const SCHEMA_LIST_KEYS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_MAP_KEYS = ["properties", "$defs", "definitions", "patternProperties"];

class Refusal extends Error {
  constructor(code, message, path) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

const pointer = (...segments) =>
  segments.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Every `type` in a parameter schema must name a JSON Schema type.
function checkTypes(schema, path) {
  if (!isObject(schema)) return;
  if ("type" in schema) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.every((t) => JSON_TYPES.has(t))) {
      throw new Refusal("schema.invalid_type", `unknown type ${JSON.stringify(schema.type)}`, path + "/type");
    }
  }
  for (const key of SCHEMA_KEYS) if (key in schema) checkTypes(schema[key], path + pointer(key));
  for (const key of SCHEMA_LIST_KEYS) {
    if (Array.isArray(schema[key])) schema[key].forEach((s, i) => checkTypes(s, path + pointer(key, i)));
  }
  for (const key of SCHEMA_MAP_KEYS) {
    if (isObject(schema[key])) {
      for (const [name, s] of Object.entries(schema[key])) checkTypes(s, path + pointer(key, name));
    }
  }
}

// canonical tools -> openai-chat tools, openai.strict=as-is
function toolsToOpenAIChat(tools) {
  if (!Array.isArray(tools)) throw new Refusal("payload.invalid", "tools must be a list", "");
  const seen = new Set();
  return tools.map((tool, i) => {
    if (!isObject(tool)) throw new Refusal("payload.invalid", "a tool must be an object", pointer(i));
    if (tool.name === undefined || tool.name === "") {
      throw new Refusal("tool.missing_name", "a tool needs a name", pointer(i, "name"));
    }
    if (typeof tool.name !== "string" || !NAME.test(tool.name)) {
      throw new Refusal("tool.invalid_name", "OpenAI names match ^[A-Za-z0-9_-]{1,64}$", pointer(i, "name"));
    }
    if (seen.has(tool.name)) {
      throw new Refusal("tool.duplicate_name", `${tool.name} is defined twice`, pointer(i, "name"));
    }
    seen.add(tool.name);
    const fn = { name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    if (tool.parameters !== undefined) {
      const where = pointer(i, "parameters");
      if (!isObject(tool.parameters)) {
        throw new Refusal("tool.invalid_parameters", "parameters must be a JSON Schema object", where);
      }
      if (tool.parameters.type !== "object") {
        throw new Refusal("schema.root_not_object", "the parameters schema must be type: object", where);
      }
      checkTypes(tool.parameters, where);
      fn.parameters = tool.parameters;
    }
    if (typeof tool.strict === "boolean") fn.strict = tool.strict; // as-is: only as the source declared it
    return { type: "function", function: fn };
  });
}

function answer(message) {
  const { cmd, seq } = message;
  if (cmd === "hello") {
    return {
      protocol: PROTOCOL,
      implementation: {
        name: "node-example",
        version: "0.1.0",
        language: "javascript",
        // profiles: none listed, so only each profile's default (openai.strict=as-is, ...);
        // error_codes: its refusals carry toolwire's codes (corpus/errors.json), so they are compared
        capabilities: { kinds: { tools: [["canonical", "openai-chat"]] }, profiles: {}, error_codes: "toolwire" },
      },
    };
  }
  if (cmd === "translate") {
    const { kind, source, target } = message;
    if (kind !== "tools" || source !== "canonical" || target !== "openai-chat") {
      return { seq, error: { code: "protocol.unsupported", message: `${kind} ${source}>${target}`, path: null } };
    }
    try {
      return { seq, payload: toolsToOpenAIChat(message.payload) };
    } catch (err) {
      if (err instanceof Refusal) return { seq, error: { code: err.code, message: err.message, path: err.path } };
      return { seq, crash: String(err && err.stack ? err.stack : err) };
    }
  }
  return { seq, error: { code: "protocol.bad_request", message: `unknown command ${cmd}`, path: null } };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (err) {
    console.error(`node-example: ignoring a line that is not JSON: ${err.message}`); // logs go to stderr
    return;
  }
  if (message.cmd === "bye") {
    lines.close();
    return;
  }
  const reply = answer(message);
  if (message.id !== undefined) reply.id = message.id; // echo the request's id: answers pair strictly
  process.stdout.write(JSON.stringify(reply) + "\n");
});
lines.on("close", () => process.exit(0));
