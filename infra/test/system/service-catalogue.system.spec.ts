import { SERVICE_CATALOGUE } from '../../launcher/src/service-catalogue';
import { SERVICE_PORTS } from '../../launcher/src/service-ports';

describe('the service catalogue', () => {
  it('names each service as its definition does, in the ports list\'s order', () => {
    expect(SERVICE_CATALOGUE.map((e) => e.definition.name)).toEqual(SERVICE_PORTS.map((e) => e.name));
  });
});
