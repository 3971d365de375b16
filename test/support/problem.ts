/** Reads a problem-details answer and checks the parts every error shares. */
export async function expectProblem(
  response: Response,
  status: number,
  code: string,
): Promise<{ detail: string; errors?: { field: string; message: string }[] }> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `urn:adline:problem:${code}` });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body as { detail: string; errors?: { field: string; message: string }[] };
}
