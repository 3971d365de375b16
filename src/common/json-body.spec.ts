import { jsonBodyProblem, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

describe('jsonBodyProblem', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(jsonBodyProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    const problem = jsonBodyProblem(nested(MAX_JSON_DEPTH + 1))?.toBody();
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(problem?.detail).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it('walks a body far deeper than the stack allows without overflowing', () => {
    expect(jsonBodyProblem(nested(200_000))?.getStatus()).toBe(400);
  });

  it('names each field whose value or key holds a lone surrogate', () => {
    const problem = jsonBodyProblem({
      email: '\ud800',
      tags: ['ok', 'x\udc00'],
      ['k\ud83d']: 1,
      fine: 'emoji 😀, RTL שלום, NUL \u0000',
    })?.toBody();
    expect(problem?.errors?.map((e) => e.field).sort()).toEqual(['email', 'k\ufffd', 'tags.1']);
  });

  it('accepts well-formed text of every script, emoji and control characters', () => {
    expect(jsonBodyProblem({ name: '👩‍💻 مرحبا \u0000\t', list: [{ a: null, b: 1 }] })).toBeNull();
  });

  it('shortens a kilobyte-long field name in the answer', () => {
    const problem = jsonBodyProblem({ [`${'k'.repeat(5000)}\ud800`]: 1 })?.toBody();
    expect(problem?.errors?.[0].field.length).toBeLessThanOrEqual(101);
  });
});
