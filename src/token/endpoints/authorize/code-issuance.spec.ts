import type { AuthorizationCodesService } from '../../issuing/authorization-codes.service.js';
import { Role } from '../../repositories/entities/role.entity.js';
import { loadTokenConfig } from '../../token.config.js';
import { checkedRequest } from '../../testing/authorization-fakes.js';
import { asReal, FakeRolesRepository } from '../../testing/in-memory-repositories.js';
import { CodeIssuance } from './code-issuance.js';
import { AuthorizationRedirectError } from './request/authorization-request.js';

describe('CodeIssuance', () => {
  let roles: FakeRolesRepository;
  let issued: Array<{ clientId: string; userId: number; scope: string }>;
  let codes: CodeIssuance;
  let reader: Role;

  beforeEach(() => {
    roles = new FakeRolesRepository();
    reader = roles.table.insert(
      Object.assign(new Role(), {
        name: 'reader',
        permissions: ['product:read'],
        builtIn: false,
        createdAt: new Date(),
      }),
    );
    issued = [];
    const service = {
      issue: (request: { client: { clientId: string } }, userId: number, scope: string) => {
        issued.push({ clientId: request.client.clientId, userId, scope });
        return Promise.resolve('the-code');
      },
    };
    codes = new CodeIssuance(
      asReal(roles),
      asReal<AuthorizationCodesService>(service as never),
      loadTokenConfig({ OAUTH_ISSUER: 'https://service.test' }),
    );
  });

  it("narrows a request without scope to the client's default scope and what the person holds", async () => {
    await expect(codes.grantable(checkedRequest(), { roleId: reader.id })).resolves.toEqual(['product:read']);
  });

  it('sends back invalid_scope, with the state, for a permission the person does not hold', async () => {
    const refused = codes.grantable(checkedRequest({ scope: 'product:write' }), { roleId: reader.id });
    await expect(refused).rejects.toBeInstanceOf(AuthorizationRedirectError);
    await expect(refused).rejects.toMatchObject({ error: 'invalid_scope', state: 'xyz' });
  });

  it('issues the code for the scope and redirects with code, state and iss', async () => {
    const answer = await codes.redirect(checkedRequest(), 7, ['product:read']);
    expect(issued).toEqual([{ clientId: 'app_shop000000000000000000', userId: 7, scope: 'product:read' }]);
    expect(answer).toEqual({
      kind: 'redirect',
      location: 'https://shop.example/cb?code=the-code&state=xyz&iss=https%3A%2F%2Fservice.test',
    });
  });
});
