// The ./vitest matchers in vitest 3 and 5, whose `Matchers` interfaces take different type
// parameters: a project of each installs the tarball, type-checks a test using every matcher
// (with `.not` and `.resolves`) under --strict with skipLibCheck off, and runs it with
// @understudy/agents/vitest as its setup file (vitest 5 on Node 22, which it requires).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { packed, sh, tscOutput } from './pack.mjs';

const testTs = `/// <reference types="@understudy/agents/vitest" />
import { test, expect } from 'vitest';
import { ScriptedModel, functionCall } from '@understudy/agents/testing';

const closed = { type: 'object', properties: {}, required: [], additionalProperties: false } as const;

test('the matchers, typed as vitest types its own', async () => {
  const tools = [{ name: 'a', inputSchema: closed }];
  const sync: void = expect(tools).toBeAcceptedBy(['openai', 'anthropic:strict']);
  expect([{ name: 'b', inputSchema: { type: 'object', additionalProperties: { type: 'string' } } }]).not.toBeAcceptedBy('openai:strict');
  const later: Promise<void> = expect(Promise.resolve(tools)).resolves.toBeAcceptedBy('gemini');
  await later;
  const model = new ScriptedModel([[functionCall('lookup', { id: 1 }, { callId: 'c1' })]]);
  await model.getResponse({ input: 'x', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false } as never);
  expect(model).toHaveCalledTool('lookup', { id: expect.any(Number) });
  expect(model).toHaveCalledToolTimes('lookup', 1);
  expect(model).not.toHaveCalledTool('other');
  expect(model).toHaveOfferedTools([]);
  return sync;
});
`;

const projects = {};
let pack;

before(() => {
  pack = packed('understudy-vitest-types-');
  for (const major of ['3', '5']) {
    projects[major] = pack.project(
      `vitest-${major}`,
      { type: 'module' },
      {
        'test/matchers.test.ts': testTs,
        'vitest.config.mjs': "export default { test: { setupFiles: ['@understudy/agents/vitest'], include: ['test/**/*.test.ts'] } };\n",
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }, include: ['test/**/*.ts'] }),
      },
      [`vitest@${major}`, 'typescript@5', `@types/node@${major === '5' ? 22 : 20}`, '@openai/agents@0.20.0', 'zod@4', ...(major === '5' ? ['node@22'] : [])],
    );
  }
});

after(() => pack?.dispose());

for (const major of ['3', '5']) {
  test(`vitest ${major}: the matcher types compile with skipLibCheck off`, () => {
    assert.equal(tscOutput(projects[major]), '');
  });

  test(`vitest ${major}: the matchers run with the setup file`, () => {
    const dir = projects[major];
    const node = major === '5' ? join(dir, 'node_modules', 'node', 'bin', 'node') : process.execPath;
    let out;
    try {
      out = sh(node, [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=verbose'], dir, { NO_COLOR: '1' });
    } catch (error) {
      out = `${error.stdout}${error.stderr}`;
    }
    assert.match(out, /1 passed/, out);
  });
}
