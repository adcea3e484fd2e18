// Neo4j's own offline Cypher linter over the statements the Neo4j adapter can send.
// Reads a JSON array of {name, statement} on stdin; prints one JSON object:
// {checked, results: [{name, errors: [...], warnings: [...]}]} (only statements with findings).
// The schema carries the linter's bundled procedure and function registry (testData.mockSchema)
// so unknown procedures, wrong YIELD names and argument counts are caught; labels and property
// keys are left out (no database to read them from), and "parameter not defined" findings are
// dropped: parameters are supplied at run time.
import { readFileSync } from 'node:fs';
import { isNotParamError, lintCypherQuery, testData } from '@neo4j-cypher/language-support';

const ERROR = 1; // LSP DiagnosticSeverity.Error; 2 is a warning

const schema = {
  procedures: testData.mockSchema.procedures,
  functions: testData.mockSchema.functions,
  defaultLanguage: 'CYPHER 5', // what Neo4j 5 runs
};

const statements = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const { name, statement } of statements) {
  const findings = lintCypherQuery(statement, schema).diagnostics.filter(isNotParamError);
  const shown = (d) => ({
    message: d.message,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    text: statement.slice(d.offsets.start, d.offsets.end),
  });
  const errors = findings.filter((d) => d.severity === ERROR).map(shown);
  const warnings = findings.filter((d) => d.severity !== ERROR).map(shown);
  if (errors.length || warnings.length) results.push({ name, errors, warnings });
}
console.log(JSON.stringify({ checked: statements.length, results }));
