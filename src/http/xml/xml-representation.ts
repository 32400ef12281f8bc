// Writes bodies as XML: root element = resource name, `<collection>` for lists (contract B, XML).
import { Builder } from 'xml2js';
import type { Representation } from '../representation.ts';

const builder = new Builder({ headless: true, renderOpts: { pretty: false } });

export const xmlRepresentation: Representation = {
  mediaType: 'text/xml',
  document: (root, body) => `<?xml version="1.0" encoding="UTF-8"?>${builder.buildObject({ [root]: body })}`,
  listOpen: () => '<?xml version="1.0" encoding="UTF-8"?><collection>',
  listItem: (root, body) => builder.buildObject({ [root]: body }),
  listClose: () => '</collection>',
};
