// addSharedSchema (src/http/validation.ts): a shared schema is added to both validators once, without
// compiling it, also when another shared schema that embeds it (same $id) was added first.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { addSharedSchema, validatorCompiler } from '../../src/http/validation.js';

function fakeApp() {
  const schemas = new Map<string, unknown>();
  return {
    addSchema: (s: unknown) => void schemas.set((s as { $id: string }).$id, s),
    getSchema: (id: string) => schemas.get(id),
  };
}

t.test('a shared schema embedded in one added before is not added twice', async (t) => {
  const suffix = randomBytes(4).toString('hex');
  const Inner = { $id: `TestInner${suffix}`, type: 'string', enum: ['a', 'b'] };
  const Outer = { $id: `TestOuter${suffix}`, type: 'object', properties: { kind: Inner }, required: ['kind'] };
  const app = fakeApp();
  addSharedSchema(app, Outer);
  t.doesNotThrow(() => addSharedSchema(app, Inner), 'ajv already knows the nested id: no "already exists"');
  t.doesNotThrow(() => addSharedSchema(fakeApp(), Outer), 'a second app adds the same schemas again');
  const validate = validatorCompiler({ schema: { $ref: `${Inner.$id}#` }, httpPart: 'body', method: 'POST', url: '/x' }) as (
    v: unknown,
  ) => boolean;
  t.equal(validate('c'), false, 'the nested schema still validates by its id');
  t.equal(validate('a'), true);
});
