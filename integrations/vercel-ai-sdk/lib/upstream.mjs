// The fake provider endpoint handed to the AI SDK's provider packages as their `fetch`
// (`createOpenAI({fetch})` etc.): it records the body the provider package sends and answers with the
// case's response body or its stream, so that requests are read where they leave the library and
// responses come back through the provider package's own parsing. No socket is opened.

/** Thrown by the fetch of a recording upstream: the request is kept, nothing is answered. */
export class Recorded extends Error {
  constructor() {
    super("toolwire: request recorded, not sent");
    this.name = "ToolwireRecorded";
  }
}

/** One corpus stream event ({event?, data}) as the SSE message a provider sends. */
export function sseEvent(ev) {
  const lines = [];
  if (ev && typeof ev === "object" && !Array.isArray(ev)) {
    if (ev.event) lines.push(`event: ${ev.event}`);
    const data = ev.data;
    lines.push("data: " + (typeof data === "string" ? data : JSON.stringify(data)));
  } else {
    lines.push("data: " + JSON.stringify(ev));
  }
  return lines.join("\n") + "\n\n";
}

/**
 * An in-process upstream. `mode` is `record` (keep the request, answer with an error the SDK raises at
 * once), `json` (answer `body` with 200) or `sse` (answer a text/event-stream whose events are pushed
 * one at a time with `push` and ended with `end`).
 */
export class Upstream {
  constructor(mode, body = undefined) {
    this.mode = mode;
    this.body = body;
    this.requests = [];
    this.controller = null;
    this.pending = []; // events pushed before the SDK asked for the response
    this.ended = false;
    this.fetch = this.fetch.bind(this);
  }

  async fetch(url, init = {}) {
    const raw = init.body;
    let body;
    try {
      body = typeof raw === "string" ? JSON.parse(raw) : raw;
    } catch {
      body = String(raw);
    }
    this.requests.push({ url: String(url), method: init.method ?? "GET", body });
    if (this.mode === "record") throw new Recorded();
    if (this.mode === "json") {
      return new Response(JSON.stringify(this.body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }
    const encoder = new TextEncoder();
    const stream = new ReadableStream({
      start: (controller) => {
        this.controller = controller;
        for (const chunk of this.pending) controller.enqueue(encoder.encode(chunk));
        this.pending = [];
        if (this.ended) controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
  }

  /** Frame one corpus event as SSE and hand it to the reader (`sse` mode). */
  push(ev) {
    const chunk = sseEvent(ev);
    if (this.controller) this.controller.enqueue(new TextEncoder().encode(chunk));
    else this.pending.push(chunk);
  }

  /** The end of the stream (`sse` mode). */
  end() {
    this.ended = true;
    if (this.controller) {
      try {
        this.controller.close();
      } catch {
        // already closed or errored by the reader
      }
    }
  }

  /** The JSON body of the one request the library sent, or null when it sent none. */
  sentBody() {
    return this.requests.length ? this.requests[0].body : null;
  }
}
