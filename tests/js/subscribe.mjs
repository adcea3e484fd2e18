// graphql-ws (graphql-transport-ws) clients against live gateways. Usage:
//   node subscribe.mjs < plan.json
// plan: {timeoutMs, clients: [{url, token, subscriptions: [{query, variables, operationName, take}]}]}
// (tokens may also come from the environment: "$NAME" reads process.env.NAME).
// Each subscription collects events until it has `take` of them (or the socket closes, or
// the time is up); each event is reported with the client's receive time (ms since epoch),
// so a caller can compute delivery latency. Prints one JSON object.
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const plan = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));
const secret = (value) => (typeof value === "string" && value.startsWith("$") ? process.env[value.slice(1)] : value);

function runClient(spec) {
  const report = { closed: null, subscriptions: [] };
  const client = createClient({
    url: spec.url,
    webSocketImpl: WebSocket,
    lazy: true,
    retryAttempts: 0,
    connectionParams: spec.token === null ? {} : { Authorization: `Bearer ${secret(spec.token)}` },
    on: { closed: (event) => { report.closed = { code: event.code, reason: event.reason }; } },
  });
  const runs = spec.subscriptions.map((sub) => new Promise((resolve) => {
    const got = { events: [], errors: [], codes: [], completed: false };
    report.subscriptions.push(got);
    const stop = client.subscribe(
      { query: sub.query, variables: sub.variables ?? {}, operationName: sub.operationName },
      {
        next: (value) => {
          got.events.push({ at: Date.now(), ...value });
          if (got.events.length >= (sub.take ?? Infinity)) { stop(); resolve(); }
        },
        error: (error) => {
          got.errors.push(error?.message ?? (Array.isArray(error) ? error.map((e) => e.message).join("; ") : String(error?.code ?? error)));
          // An `error` message's GraphQL errors: each one's extensions.code (null when none).
          if (Array.isArray(error)) got.codes.push(...error.map((e) => e?.extensions?.code ?? null));
          resolve();
        },
        complete: () => { got.completed = true; resolve(); },
      },
    );
  }));
  return { report, done: Promise.all(runs).then(() => client.dispose()) };
}

const clients = plan.clients.map(runClient);
const timeout = new Promise((resolve) => setTimeout(resolve, plan.timeoutMs ?? 60000, "timeout"));
const outcome = await Promise.race([Promise.all(clients.map((c) => c.done)).then(() => "done"), timeout]);
await Promise.all(clients.map((c) => Promise.race([c.done, new Promise((r) => setTimeout(r, 200))])));
console.log(JSON.stringify({ outcome, clients: clients.map((c) => c.report) }));
process.exit(0);
