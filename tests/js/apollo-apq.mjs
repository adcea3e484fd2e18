// Apollo Client's persisted-queries link against the live gateway. Usage:
//   FABRIC_TOKEN=... FABRIC_QUERY=... node apollo-apq.mjs URL [get]
//   FABRIC_QUERY=... node apollo-apq.mjs manifest    (the operation as an Apollo persisted
//   query manifest: what a dashboard's build step hands to `fabric documents register`)
// Runs the same query from two fresh clients (two browser tabs, or two dashboards behind
// different replicas) and reports every HTTP exchange each made, then the answers.
import { createHash } from "node:crypto";
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client/core/index.js";
import { createPersistedQueryLink } from "@apollo/client/link/persisted-queries/index.js";
import { print } from "graphql";

const [url, mode] = process.argv.slice(2);
const token = process.env.FABRIC_TOKEN;
const query = gql(process.env.FABRIC_QUERY);
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

if (url === "manifest") {
  const body = print(query);
  const operation = query.definitions[0];
  const entry = { id: sha256(body), name: operation.name?.value, type: operation.operation, body };
  console.log(JSON.stringify({ format: "apollo-persisted-query-manifest", version: 1, operations: [entry] }));
  process.exit(0);
}

function client(exchanges) {
  const logged = async (input, init) => {
    const response = await fetch(input, init);
    const body = await response.clone().text();
    const sent = init.method === "GET" ? Object.fromEntries(new URL(input).searchParams) : JSON.parse(init.body);
    exchanges.push({
      method: init.method,
      sentQuery: sent.query ?? null,
      hash: (typeof sent.extensions === "string" ? JSON.parse(sent.extensions) : sent.extensions)
        ?.persistedQuery?.sha256Hash ?? null,
      status: response.status,
      codes: (JSON.parse(body).errors ?? []).map((e) => e.extensions?.code ?? null),
    });
    return response;
  };
  const persisted = createPersistedQueryLink({
    sha256,
    useGETForHashedQueries: mode === "get",
  });
  const http = new HttpLink({ uri: url, fetch: logged, headers: { authorization: `Bearer ${token}` } });
  return new ApolloClient({ link: persisted.concat(http), cache: new InMemoryCache({ addTypename: false }) });
}

const report = {};
for (const name of ["first", "second"]) {
  const exchanges = [];
  try {
    const result = await client(exchanges).query({ query, fetchPolicy: "network-only" });
    report[name] = { exchanges, data: result.data };
  } catch (error) {
    report[name] = { exchanges, error: String(error.message ?? error) };
  }
}
console.log(JSON.stringify(report));
