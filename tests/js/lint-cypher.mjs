// Neo4j's own offline Cypher linter over the statements the Neo4j adapter can send.
// Reads a JSON array of {name, statement} on stdin; prints one JSON object:
// {checked, results: [{name, errors: [...], warnings: [...], symbols}]}, one per statement;
// symbols counts the variables the semantic analysis saw (it returns none, and no error, when
// it fails inside: a query statement with none was not analysed).
// The schema carries the linter's bundled procedure and function registry (testData.mockSchema)
// so unknown procedures, wrong YIELD names and argument counts are caught; labels and property
// keys are left out (no database to read them from), and "parameter not defined" findings are
// dropped: parameters are supplied at run time.
// The linter's semantic analysis costs a few hundred milliseconds of CPU per statement, so the
// statements are shared among worker threads, one per core (FABRIC_LINT_WORKERS overrides).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const ERROR = 1; // LSP DiagnosticSeverity.Error; 2 is a warning

async function lint(statements) {
  const { isNotParamError, lintCypherQuery, testData } = await import(
    '@neo4j-cypher/language-support'
  );
  const schema = {
    procedures: testData.mockSchema.procedures,
    functions: testData.mockSchema.functions,
    defaultLanguage: 'CYPHER 5', // what Neo4j 5 runs
  };
  const results = [];
  for (const { name, statement } of statements) {
    const linted = lintCypherQuery(statement, schema);
    const findings = linted.diagnostics.filter(isNotParamError);
    const symbols = (linted.symbolTables ?? []).reduce((n, table) => n + table.length, 0);
    const shown = (d) => ({
      message: d.message,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      text: statement.slice(d.offsets.start, d.offsets.end),
    });
    const errors = findings.filter((d) => d.severity === ERROR).map(shown);
    const warnings = findings.filter((d) => d.severity !== ERROR).map(shown);
    results.push({ name, errors, warnings, symbols });
  }
  return results;
}

function inWorker(share) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: share });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code && reject(new Error(`lint worker exited ${code}`)));
  });
}

if (isMainThread) {
  const statements = JSON.parse(readFileSync(0, 'utf8'));
  const wanted = Number(process.env.FABRIC_LINT_WORKERS) || availableParallelism();
  const workers = Math.max(1, Math.min(wanted, 4, statements.length));
  // Dealt round-robin: the costly composed statements sit next to each other in the input.
  const shares = Array.from({ length: workers }, (_, w) =>
    statements.filter((_, i) => i % workers === w),
  );
  const results = (await Promise.all(shares.map(inWorker))).flat();
  const order = new Map(statements.map((s, i) => [s.name, i]));
  results.sort((a, b) => order.get(a.name) - order.get(b.name));
  console.log(JSON.stringify({ checked: statements.length, results }));
} else {
  parentPort.postMessage(await lint(workerData));
}
