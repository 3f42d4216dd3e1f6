// An address's municipalityCode: HR and SI only, checked against the known codes the shell passes
// in (the shipped lists), keyed `address.municipalityCode`; absent when not given.
import t from 'tap';
import type { EmployeeFields, MunicipalityCodes } from '../../../src/domain/employees/index.js';
import { expectDomainError, testContext } from '../../helpers/given-when-then.js';
import { employeeDecider } from '../../../src/domain/employees/index.js';
import { definitions, fullFields } from './fixtures.js';

const KNOWN: MunicipalityCodes = { HR: new Set(['00604', '01333']), SI: new Set(['061']) };

const register = (address: EmployeeFields['address'], municipalityCodes: MunicipalityCodes | null = KNOWN) =>
  employeeDecider.decide(
    {
      type: 'RegisterEmployee',
      data: {
        employeeId: 'emp-1',
        fields: { ...fullFields(), address },
        customFieldDefinitions: definitions,
        ...(municipalityCodes && { municipalityCodes }),
      },
    },
    employeeDecider.initialState(),
    testContext(),
  );

const addressOf = (events: ReturnType<typeof register>) => (events[0]?.data as { profile: { address: unknown } }).profile.address;

t.test('a known code of the address country is stored', async (t) => {
  t.same(addressOf(register({ city: 'Čakovec', countryCode: 'HR', municipalityCode: '00604' })), {
    street: null,
    postalCode: null,
    city: 'Čakovec',
    countryCode: 'HR',
    municipalityCode: '00604',
  });
  t.match(addressOf(register({ city: 'Ljubljana', countryCode: 'SI', municipalityCode: ' 061 ' })), { municipalityCode: '061' });
});

t.test('no code (absent, null or blank) leaves the field out', async (t) => {
  for (const municipalityCode of [undefined, null, '  ']) {
    const address = addressOf(register({ city: 'Graz', countryCode: 'AT', ...(municipalityCode !== undefined && { municipalityCode }) }));
    t.notOk(Object.hasOwn(address as object, 'municipalityCode'), `${JSON.stringify(municipalityCode)}`);
  }
});

t.test('refusals are keyed address.municipalityCode', async (t) => {
  const cases: [string, EmployeeFields['address'], MunicipalityCodes | null][] = [
    ['unknown HR code', { countryCode: 'HR', municipalityCode: '99999' }, KNOWN],
    ['an SI code on an HR address', { countryCode: 'HR', municipalityCode: '061' }, KNOWN],
    ['an HR code on an SI address', { countryCode: 'SI', municipalityCode: '00604' }, KNOWN],
    ['a country without municipality codes', { countryCode: 'AT', municipalityCode: '00604' }, KNOWN],
    ['no known codes passed in', { countryCode: 'HR', municipalityCode: '00604' }, null],
  ];
  for (const [name, address, known] of cases) {
    const err = expectDomainError(t, () => register(address, known), 'VALIDATION_FAILED');
    t.same(Object.keys(err?.errors ?? {}), ['address.municipalityCode'], name);
  }
});
