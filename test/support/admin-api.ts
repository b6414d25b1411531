import request from 'supertest';
import type { TestApp } from './test-app.js';

export interface CreatedIntegration {
  id: number;
  access_key_id: string;
  secret_access_key: string;
}

/** Creates a role with these permissions and an integration holding it, through the admin API. */
export async function createIntegration(
  t: TestApp,
  permissions: string[],
  label = 'test',
): Promise<CreatedIntegration> {
  const role = `role-${Math.random().toString(36).slice(2, 10)}`;
  await t.http.post('/api/roles').send({ name: role, permissions }).expect(201);
  const res = await t.http.post('/api/integrations').send({ label, role }).expect(201);
  return res.body as CreatedIntegration;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** An access token of `integration` from the client credentials grant, on the service at `url`. */
export async function integrationToken(url: string, integration: CreatedIntegration): Promise<string> {
  const res = await request(url)
    .post('/api/oauth/token')
    .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
    .type('form')
    .send({ grant_type: 'client_credentials' })
    .expect(200);
  return (res.body as { access_token: string }).access_token;
}
