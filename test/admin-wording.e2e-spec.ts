import { authorizeUrl, pkce } from './support/authorization-code.js';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Issue 39, item 6: an icon on every page, and words a person reads without a second look. */
describe('Administration: the icon, counts and scope names', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_DISPATCHER: 'off' });
  });
  afterAll(() => t.close({ destroy: true }));

  it('serves /favicon.ico and /favicon.svg as images, cached for long, without a token', async () => {
    const ico = await fetch(`${t.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect(ico.headers.get('cache-control')).toBe('public, max-age=31536000');
    const bytes = Buffer.from(await ico.arrayBuffer());
    // An ICO header of one image, and that image a PNG.
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(bytes.subarray(bytes.readUInt32LE(18), bytes.readUInt32LE(18) + 4).toString('latin1')).toBe('\x89PNG');
    const svg = await fetch(`${t.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('links the icon from the sign-in page and the API documentation, and their policies admit it', async () => {
    const { challenge } = await pkce();
    const signIn = await fetch(
      authorizeUrl(t.url, { scope: '*', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(signIn.headers.get('content-security-policy')).toMatch(/img-src 'self'/);
    const docs = await fetch(`${t.url}/api/docs`);
    expect(await docs.text()).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    expect(docs.headers.get('content-security-policy')).toMatch(/img-src 'self'/);
  });

  it('counts the holders of a role in use as a person writes them', async () => {
    await t.http
      .post('/api/roles')
      .send({ name: 'one-user', permissions: ['article:read'] })
      .expect(201);
    await t.http
      .post('/api/users')
      .send({ username: 'rita', password: 'a long enough passphrase', role: 'one-user' })
      .expect(201);
    await t.http
      .post('/api/roles')
      .send({ name: 'two-apps', permissions: ['article:read'] })
      .expect(201);
    for (const label of ['first', 'second']) {
      await t.http.post('/api/integrations').send({ label, role: 'two-apps' }).expect(201);
    }
    const roles = (await t.http.get('/api/roles?limit=100').expect(200)).body.items as Array<{
      id: number;
      name: string;
    }>;
    const idOf = (name: string) => roles.find((role) => role.name === name)!.id;

    const oneUser = expectProblem(await t.http.delete(`/api/roles/${idOf('one-user')}`), 409, 'role-in-use');
    expect(oneUser.detail).toBe(
      'Role "one-user" is given to 1 user and no integrations: give them another role first.',
    );
    const twoApps = expectProblem(await t.http.delete(`/api/roles/${idOf('two-apps')}`), 409, 'role-in-use');
    expect(twoApps.detail).toBe(
      'Role "two-apps" is given to no users and 2 integrations: give them another role first.',
    );
  });

  it('names the scope * so that it does not read like a marker of a required field', async () => {
    const document = (await fetch(`${t.url}/api/docs-json`).then((res) => res.json())) as {
      components: { securitySchemes: Record<string, { flows: Record<string, { scopes: Record<string, string> }> }> };
    };
    const flows = Object.values(document.components.securitySchemes).flatMap((scheme) =>
      Object.values(scheme.flows ?? {}),
    );
    expect(flows.length).toBeGreaterThan(0);
    for (const flow of flows) expect(flow.scopes['*']).toBe('All permissions (administrators)');
  });
});
