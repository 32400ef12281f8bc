// Hostile and broken XML: no DTD, entity or deep nesting is ever processed; broken documents and charsets are 4xx,
// never 500.
import { expect } from 'chai';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { unique } from '../support/fixtures.ts';
import { outcome, xmlCall, xmlType, generalError, bodyError, fieldErrors } from './xml-client.ts';

describe('XML: hostile and broken documents', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const sighting = (memo: string) =>
    `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>-1</vesselId></vessel></sighting>`;
  const forbidden =
    bodyError('The XML document must not contain a document type declaration or entities.', 'error.xmlForbidden');
  const malformed = bodyError('The XML document is not well-formed.', 'error.malformedXml');
  const notUtf8 = bodyError('An XML document must be encoded in UTF-8.', 'error.xmlCharset');

  /** Posts a sighting body and tells the answer and whether a sighting with `memo` exists afterwards. */
  async function post(body: string | Uint8Array, memo?: string, contentType?: string) {
    const answer = await outcome(await xmlCall(service, 'POST', '/sighting', { body, contentType }));
    const stored = memo === undefined ? undefined
      : (await xmlCall(service, 'POST', '/sighting/qbe', { accept: 'application/json', contentType: 'application/json',
        body: JSON.stringify({ sightingMemo: memo }) })).status === 200;
    return { ...answer, stored };
  }

  it('when the XML is not well-formed, then 400 with a localized message on the field body', async () => {
    const answer = await outcome(await xmlCall(service, 'POST', '/sighting',
      { headers: { 'Accept-Language': 'de' }, body: '<sighting><sightingMemo>xx</sighting>' }));
    expect(answer).to.deep.equal({ status: 400, type: xmlType, headers: {},
      body: bodyError('Das XML-Dokument ist nicht wohlgeformt.', 'error.malformedXml') });
  });

  it('when a document has a DOCTYPE, even a harmless one, then 400 and nothing is stored', async () => {
    const memo = unique('doctype');
    expect(await post(`<?xml version="1.0"?><!DOCTYPE sighting>${sighting(memo)}`, memo))
      .to.deep.equal({ status: 400, type: xmlType, headers: {}, body: forbidden, stored: false });
    expect(await post(`<!doctype sighting [<!ELEMENT sighting ANY>]>${sighting(memo)}`, memo))
      .to.deep.equal({ status: 400, type: xmlType, headers: {}, body: forbidden, stored: false });
  });

  it('when an entity-expansion bomb is sent, then 400 at once, nothing is expanded', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE sighting [<!ENTITY lol0 "lol">${levels}]>${sighting('&lol9;')}`;
    const started = Date.now();
    const answer = await post(bomb);
    // A bound a loaded machine keeps: an expansion would take far longer, or exhaust the memory.
    expect({ ...answer, fast: Date.now() - started < 30_000 })
      .to.deep.equal({ status: 400, type: xmlType, headers: {}, body: forbidden, stored: undefined, fast: true });
  });

  it('when an external entity is declared or referenced, then 400 and no file is read', async () => {
    const declared = await post(`<!DOCTYPE sighting [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${sighting('&xxe;')}`, 'root:');
    const parameter = await post(`<!DOCTYPE sighting [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote;]>${sighting('xx')}`);
    const undeclared = await post(sighting('&xxe;'));
    expect([declared, parameter, undeclared]).to.deep.equal([
      { status: 400, type: xmlType, headers: {}, body: forbidden, stored: false },
      { status: 400, type: xmlType, headers: {}, body: forbidden, stored: undefined },
      { status: 400, type: xmlType, headers: {}, body: malformed, stored: undefined },
    ]);
  });

  it('when a text references an entity XML does not declare (HTML\'s &nbsp;, &AMP;), ' +
    'then 400 not well-formed', async () => {
    const answers = [];
    for (const reference of ['&nbsp;', '&AMP;', '&eacute;', '&copy;', '&#X41;', '&#0;', '&amp']) {
      const memo = unique('entity');
      answers.push(await post(sighting(`${reference}${memo}`), memo));
    }
    expect(answers)
      .to.deep.equal(Array(7).fill({ status: 400, type: xmlType, headers: {}, body: malformed, stored: false }));
  });

  it('when a text uses the five XML entities and character references, ' +
    'then they are stored as the characters', async () => {
    const memo = unique('refs');
    const answer = await post(
      sighting(`&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1F600;<![CDATA[&nbsp;]]><!-- &nbsp; -->${memo}`), memo);
    expect(answer).to.include({ status: 201, stored: true });
    const found = await xmlCall(service, 'POST', '/sighting/qbe',
      { accept: 'application/json', contentType: 'application/json', body: JSON.stringify({ sightingMemo: memo }) });
    expect(((await found.json()) as Array<{ sightingMemo: string }>)[0]!.sightingMemo)
      .to.equal(`<>&'"AB😀&nbsp;${memo}`);
  });

  it('when a memo holds NEL, DEL or CSI as character references (Unicode Cc, not C0), ' +
    'then 400 error.field.controlCharacter on the memo and nothing is stored', async () => {
    const controlCharacter = fieldErrors({ sightingMemo:
      { message: 'This text must not contain control characters.', key: 'error.field.controlCharacter' } });
    const answers = [];
    for (const reference of ['&#x85;', '&#x7F;', '&#x9B;', '&#133;']) {
      const memo = unique('c1');
      answers.push(await post(sighting(`${memo}${reference}`), memo));
    }
    expect(answers)
      .to.deep.equal(Array(4).fill({ status: 400, type: xmlType, headers: {}, body: controlCharacter, stored: false }));
  });

  it('when the document is nested deeper than 32 elements, ' +
    'then 400 too deep, also when it is thousands deep', async () => {
    const tooDeep = bodyError('The request body is nested more than 32 levels deep.', 'error.bodyTooDeep');
    const nest = (depth: number) => `<sighting><sightingMemo>xx</sightingMemo><vessel><vesselId>-1</vesselId>` +
      `</vessel>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</sighting>`;
    expect([await post(nest(32)), await post(nest(8_000))]).to.deep.equal([
      { status: 400, type: xmlType, headers: {}, body: tooDeep, stored: undefined },
      { status: 400, type: xmlType, headers: {}, body: tooDeep, stored: undefined },
    ]);
    // 31 levels below the root is within the bound: the unknown element is then a field error, as in JSON.
    const within = await post(nest(31));
    expect([within.status, within.body.includes('<a><message>This field is unknown.</message>')])
      .to.deep.equal([400, true]);
  });

  it('when a body of 100 000 nested elements fits the size limit, ' +
    'then a fast 400 too deep, never a stack overflow', async () => {
    // 700 kB: more than the default limit allows, so a service of its own takes 1 MB bodies.
    const roomy = await startService({ BODY_LIMIT: '1mb' });
    try {
      const body = `<sighting>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</sighting>`;
      const answer = await outcome(await xmlCall(roomy, 'POST', '/sighting', { body }));
      const tooDeep = bodyError('The request body is nested more than 32 levels deep.', 'error.bodyTooDeep');
      // No recursion to overflow: a refusal, not a 500 (the test's own time-out catches a parser that hangs).
      expect(answer).to.deep.equal({ status: 400, type: xmlType, headers: {}, body: tooDeep });
    } finally {
      await roomy.stop();
    }
  });

  it('when the document is huge, then 413 before anything is parsed', async () => {
    const huge = `<sighting>${'<sightingMemo>xx</sightingMemo>'.repeat(5000)}</sighting>`;
    expect(await post(huge)).to.deep.equal({ status: 413, type: xmlType, headers: {},
      body: generalError('The request body is too large.'), stored: undefined });
  });

  it('when another charset is declared in Content-Type or in the XML declaration, ' +
    'then 415 and nothing is stored', async () => {
    const memo = unique('Jäger');
    const latin1 = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${sighting(memo)}`, 'latin1');
    const unsupported = { status: 415, type: xmlType, headers: {},
      body: generalError('An XML document must be encoded in UTF-8.'), stored: false };
    expect([
      await post(sighting(memo), memo, 'text/xml; charset=ISO-8859-1'),
      await post(new Uint8Array(latin1), memo),
      await post(sighting(memo), memo, 'application/xml; charset=utf-16'),
    ]).to.deep.equal([unsupported, unsupported, unsupported]);
  });

  it('when the bytes are not UTF-8 (latin1 sent as UTF-8, or UTF-16), ' +
    'then 400 and nothing is stored as mojibake', async () => {
    const memo = unique('Jäger');
    const latin1 = new Uint8Array(Buffer.from(sighting(memo), 'latin1'));
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sighting(memo), 'utf16le')]));
    const notUtf8Answer = { status: 400, type: xmlType, headers: {}, body: notUtf8, stored: false };
    expect([await post(latin1, memo, 'text/xml; charset=utf-8'), await post(utf16, memo)])
      .to.deep.equal([notUtf8Answer, notUtf8Answer]);
  });

  it('when the document is UTF-8 with a byte order mark, then it is read', async () => {
    const memo = unique('Jäger');
    const withBom = new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<?xml version="1.0" encoding="utf-8"?>${sighting(memo)}`)]));
    expect(await post(withBom, memo)).to.deep.equal({ status: 201, type: null, headers: {}, body: '', stored: true });
  });

  it('when the body is empty, has two roots, or text after the root, then 400 not well-formed', async () => {
    const bad = { status: 400, type: xmlType, headers: {}, body: malformed, stored: undefined };
    expect([await post(''), await post(`${sighting('xx')}${sighting('yy')}`), await post(`${sighting('xx')}trailing`),
      await post('just text')])
      .to.deep.equal([bad, bad, bad, bad]);
  });

  it('when the root element is not the resource, then 400 naming the expected root', async () => {
    const answer = await post('<vessel><vesselName><text xml:lang="en">x</text></vesselName></vessel>');
    expect(answer).to.deep.equal({ status: 400, type: xmlType, headers: {}, body:
      bodyError('The XML document\'s root element must be &lt;sighting&gt;.', 'error.xmlRoot'), stored: undefined });
  });
});
