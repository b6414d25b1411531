import { stripVTControlCharacters } from 'node:util';
import {
  buildService,
  launchServiceProcess,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import { ADMIN_PASSWORD, createTestDatabase, passwordToken, type TestDatabase } from './support/test-app.js';
import { eventually } from './support/wait.js';

/** The log of the built service, read as an operator gets it: its own process, stdout a pipe, the default level. */
describe('Logs: the service process', () => {
  let build: ServiceBuild;
  let database: TestDatabase;
  const services: ServiceProcess[] = [];

  // Colours, should the environment force them on a pipe, are not what is checked.
  const lines = (service: ServiceProcess) => stripVTControlCharacters(service.output()).trimEnd().split('\n');
  // The level a person would leave: LOG_LEVEL unset. No LOG_FORMAT: a pipe gets JSON.
  const asOperator = { LOG_LEVEL: undefined, LOG_FORMAT: undefined };

  beforeAll(async () => {
    [build, database] = await Promise.all([buildService('logs'), createTestDatabase()]);
  }, 120_000);

  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    await build?.remove();
    await database?.drop();
  });

  it('starts in a few lines, logs each request in one short line, and says so when SIGTERM stopped it', async () => {
    const service = await startServiceProcess(build, database, asOperator);
    services.push(service);
    const start = lines(service);
    // Address, database, storage, the first start's administrator and secrets key: not a line per route.
    expect(start.length).toBeLessThan(10);
    expect(service.output()).not.toMatch(/Mapped|RouterExplorer|RoutesResolver|InstanceLoader/);
    const messages = start.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain(`Listening on http://127.0.0.1:${service.port}`);
    expect(messages.some((msg) => msg.startsWith('Database: '))).toBe(true);
    expect(messages.some((msg) => msg.startsWith('Files stored in '))).toBe(true);

    const { access_token: token } = await passwordToken(service.url, 'admin', ADMIN_PASSWORD);
    const res = await fetch(`${service.url}/api/roles?limit=5`, {
      headers: { Authorization: `Bearer ${token}`, Cookie: 'session=cookie-secret', 'User-Agent': 'logs-e2e/1' },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const line = await eventually('the request line', () => lines(service).find((text) => text.includes('/api/roles')));
    expect(JSON.parse(line)).toEqual({
      level: 30,
      time: expect.any(Number) as unknown,
      pid: service.child.pid,
      hostname: expect.any(String) as unknown,
      req: { id: requestId, method: 'GET', url: '/api/roles?limit=5' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number) as unknown,
      principal: expect.stringMatching(/^user:\d+$/) as unknown,
      msg: expect.stringMatching(/^GET \/api\/roles\?limit=5 200 \d+ms$/) as unknown,
    });
    expect(service.output()).not.toMatch(/cookie-secret|logs-e2e|authorization|"headers"/i);
    expect(service.output()).not.toContain(token);

    const before = lines(service).length;
    await service.stop('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.child.signalCode).toBeNull();
    const after = lines(service).slice(before);
    expect(after).toHaveLength(1);
    expect(JSON.parse(after[0])).toMatchObject({ level: 30, msg: 'Stopped cleanly on SIGTERM' });
  });

  it('writes pretty lines when LOG_FORMAT=pretty, and refuses a LOG_FORMAT it does not know in one line', async () => {
    const refused = await launchServiceProcess(build, { ...database.env, ...asOperator, LOG_FORMAT: 'xml' });
    services.push(refused);
    expect(await refused.exited).toBe(1);
    expect(lines(refused)).toEqual([expect.stringMatching(/LOG_FORMAT must be json or pretty.*"xml"/)]);

    const service = await startServiceProcess(build, database, { ...asOperator, LOG_FORMAT: 'pretty' });
    services.push(service);
    const start = lines(service);
    expect(start.length).toBeLessThan(10);
    expect(start.at(-1)).toMatch(
      new RegExp(
        `^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: \\[Process\\] Listening on http://127\\.0\\.0\\.1:${service.port}$`,
      ),
    );
    expect(service.output()).not.toMatch(/^\{/m);
    await service.stop('SIGINT');
    expect(await service.exited).toBe(0);
    expect(lines(service).at(-1)).toMatch(/INFO: \[Process\] Stopped cleanly on SIGINT$/);
  });
});
