import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { checkMode, formatViolation, takeViolations, type Violation } from './support/openapi-contract.js';

// Every response of the applications a suite starts is checked against openapi.json (test/support/openapi-contract.ts):
// the test that received a violating response fails; what arrives after the last test fails the suite.
function assertResponsesMatchDocument(): void {
  const violations = takeViolations();
  if (violations.length === 0) return;
  if (process.env.OPENAPI_RESPONSE_REPORT) report(process.env.OPENAPI_RESPONSE_REPORT, violations);
  if (checkMode() !== 'fail') return;
  const lines = [...new Set(violations.map(formatViolation))].map((line) => `  ${line}`);
  const message =
    `${lines.length} response(s) do not match openapi.json (checked by test/support/openapi-contract.ts; ` +
    `OPENAPI_RESPONSE_CHECK=report records them without failing):\n${lines.join('\n')}`;
  throw new Error(message);
}

/** Appends `operation status: message <TAB> suite <TAB> test` lines, to group with `cut -f1 | sort | uniq -c`. */
function report(file: string, violations: Violation[]): void {
  const { testPath, currentTestName } = expect.getState();
  const where = `${relative(process.cwd(), testPath ?? '')}\t${currentTestName ?? '(after all tests)'}`;
  const lines = violations.map(
    (v) => `${v.operation ?? `${v.method} ${v.path}`} ${v.status}: ${v.message}\t${where}\n`,
  );
  appendFileSync(file, lines.join(''));
}

afterEach(assertResponsesMatchDocument);
afterAll(assertResponsesMatchDocument);
