// Apollo Federation v2 with this gateway as a subgraph. Usage:
//   node federation.mjs compose < subgraph.graphql
//     composes the given SDL (the gateway's `_service { sdl }`) with the Node subgraph below,
//     using @theguild/federation-composition; prints {errors, supergraph}.
//   FABRIC_URL=... FABRIC_TOKEN=... FABRIC_QUERIES='[...]' node federation.mjs serve
//     serves the Node subgraph (@apollo/subgraph over graphql-http), composes it with the live
//     gateway's SDL, serves the supergraph with @graphql-hive/gateway (forwarding the client's
//     Authorization header to every subgraph), runs each query through it with the bearer
//     token, and prints {errors, results, seenByNodeSubgraph}.
import { createServer } from "node:http";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { createGatewayRuntime } from "@graphql-hive/gateway";
import { composeServices } from "@theguild/federation-composition";
import { parse } from "graphql";
import { createHandler } from "graphql-http/lib/use/http";

// A second team's service: who is on call for a subject, keyed by the subject's key.
const ONCALL_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Subject @key(fields: "key") {
    key: String!
    oncall: OnCall
  }
  type OnCall { handle: String! escalation: [String!]! }
  type Query { rotation: [Subject!]! }
`;
const seen = [];
const oncall = (key) => ({ handle: `@${key.split(":")[1]}-oncall`, escalation: ["primary", "secondary"] });
const resolvers = {
  Query: { rotation: () => [{ key: "repository:alpha" }, { key: "team:core" }] },
  Subject: {
    __resolveReference: (ref) => ({ key: ref.key }),
    oncall: (subject) => (subject.key.startsWith("repository:") ? oncall(subject.key) : null),
  },
};

function compose(fabricSdl, oncallUrl = "http://oncall.invalid/graphql", fabricUrl = "http://fabric.invalid/graphql") {
  return composeServices([
    { name: "fabric", typeDefs: parse(fabricSdl), url: fabricUrl },
    { name: "oncall", typeDefs: parse(ONCALL_SDL), url: oncallUrl },
  ]);
}

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function readStdin() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

const mode = process.argv[2];
if (mode === "compose") {
  const result = compose(await readStdin());
  console.log(JSON.stringify({ errors: (result.errors ?? []).map((e) => e.message), supergraph: result.supergraphSdl ?? null }));
  process.exit(0);
}

const { FABRIC_URL: url, FABRIC_TOKEN: token } = process.env;
const queries = JSON.parse(process.env.FABRIC_QUERIES);
const schema = buildSubgraphSchema([{ typeDefs: parse(ONCALL_SDL), resolvers }]);
const graphqlHandler = createHandler({ schema });
const subgraph = await listen((req, res) => {
  seen.push(req.headers.authorization ?? null);
  graphqlHandler(req, res);
});
const sdlAnswer = await fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  body: JSON.stringify({ query: "{ _service { sdl } }" }),
}).then((r) => r.json());
const composed = compose(sdlAnswer.data._service.sdl, `http://127.0.0.1:${subgraph.address().port}/graphql`, url);
if (composed.errors?.length) {
  console.log(JSON.stringify({ errors: composed.errors.map((e) => e.message) }));
  process.exit(0);
}
const runtime = createGatewayRuntime({
  supergraph: composed.supergraphSdl,
  logging: false,
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get("authorization") }),
  },
});
const gateway = await listen(runtime);
const results = [];
for (const query of queries) {
  const answer = await fetch(`http://127.0.0.1:${gateway.address().port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", authorization: query.anonymous ? "" : `Bearer ${token}` },
    body: JSON.stringify({ query: query.query }),
  });
  results.push({ status: answer.status, body: await answer.json() });
}
await runtime.dispose?.();
gateway.close();
subgraph.close();
console.log(JSON.stringify({ errors: [], results, seenByNodeSubgraph: seen }));
process.exit(0);
