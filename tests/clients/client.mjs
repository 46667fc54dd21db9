#!/usr/bin/env node
// Minimal MCP client on @modelcontextprotocol/sdk (TypeScript SDK), for smoke-testing a server.
//
// Usage:
//   node client.mjs --url http://127.0.0.1:8765/mcp [--token TOKEN] [--header "K: V"]... [--tool NAME [--args JSON]]
//   node client.mjs [--tool NAME [--args JSON]] -- COMMAND [ARG...]        (stdio; server inherits full env)
//   Options: --timeout MS (per request, default 30000), --no-list (skip tools/list)
//
// Prints one JSON object on stdout: {transport, server, protocolVersion, tools?, call?}.
// Exit codes: 0 ok; 1 connect/protocol/JSON-RPC error; 2 usage error; 3 tool result had isError: true.
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

function usage(msg) {
  process.stderr.write(`client.mjs: ${msg}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      header: { type: "string", multiple: true },
      tool: { type: "string" },
      args: { type: "string" },
      timeout: { type: "string", default: "30000" },
      "no-list": { type: "boolean", default: false },
    },
  });
} catch (e) {
  usage(e.message);
}
const { values: opt, positionals } = parsed;

let toolArgs = {};
if (opt.args !== undefined) {
  try {
    toolArgs = JSON.parse(opt.args);
  } catch (e) {
    usage(`--args is not valid JSON: ${e.message}`);
  }
  if (toolArgs === null || typeof toolArgs !== "object" || Array.isArray(toolArgs)) usage("--args must be a JSON object");
}
const timeout = Number(opt.timeout);

let transport;
let kind;
if (opt.url) {
  if (positionals.length) usage("give either --url or a stdio command after --, not both");
  const headers = {};
  for (const h of opt.header ?? []) {
    const i = h.indexOf(":");
    if (i < 1) usage(`bad --header ${JSON.stringify(h)}, want "Name: value"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  if (opt.token) headers["Authorization"] = `Bearer ${opt.token}`;
  transport = new StreamableHTTPClientTransport(new URL(opt.url), { requestInit: { headers } });
  kind = "streamable-http";
} else {
  if (!positionals.length) usage("need --url URL or -- COMMAND [ARG...]");
  const [command, ...args] = positionals;
  // env: process.env -> the server sees our whole environment (the SDK default passes only HOME, PATH, ...).
  transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });
  kind = "stdio";
}

const client = new Client({ name: "nodeclients-sdk-client", version: "1.0.0" });
const out = { transport: kind };
let code = 0;
try {
  await client.connect(transport, { timeout });
  out.server = client.getServerVersion();
  out.protocolVersion = transport.protocolVersion ?? null; // set for HTTP; stdio leaves it undefined
  if (!opt["no-list"]) {
    const { tools } = await client.listTools(undefined, { timeout });
    out.tools = tools.map((t) => t.name);
  }
  if (opt.tool) {
    out.call = await client.callTool({ name: opt.tool, arguments: toolArgs }, undefined, { timeout });
    if (out.call.isError) code = 3;
  }
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
} catch (e) {
  out.error = { message: e?.message ?? String(e), code: e?.code };
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  process.stderr.write(`client.mjs: ${out.error.message}\n`);
  code = 1;
} finally {
  await client.close().catch(() => {});
}
process.exit(code);
