// An XML list document (a batch's `<collection>`) read as its text arrives: each child element of the root cut out
// whole and handed on as its own text, so that neither the document nor more than one record's text is ever held.
// xml2js parses whole documents only; each record is parsed by it (src/http/xml/xml-document.ts, with its limits)
// inside the root's own start tag, so that its namespace prefixes mean what they mean in the whole document.
import { BadRequest, ValidationFailed } from '../../errors/app-errors.ts';
import { bodyTooDeep, maxBodyDepth } from '../body-depth.ts';

/** Where the text being read stands: before the root, between records, inside a record, after the root. */
type Place = 'prolog' | 'root' | 'record' | 'epilog';

/** Markup that may run over several pieces, each to its end. */
const sections = { comment: '-->', cdata: ']]>', instruction: '?>' } as const;
type Section = keyof typeof sections;

const blank = /^[ \t\n\r]*$/;
const malformed = () => new BadRequest('error.malformedXml');

/**
 * Cuts the records out of a text given in pieces (`push`). `root` is told the root's start tag once it is whole (it
 * may refuse it); `record` each record's text, with its 1-based position. What the cut needs of XML's grammar is
 * checked here: a markup declaration (`<!DOCTYPE`, `<!ENTITY`: XXE, billion laughs) is refused as soon as it shows,
 * nesting past `maxBodyDepth` before it is held, anything but blanks, comments and processing instructions around the
 * root, character data beside the records. Each record's own well-formedness is left to its parser. Only the record
 * under way is held, and each piece is looked at once.
 */
export class XmlListRecords {
  private place: Place = 'prolog';
  /** The markup under way: a section to its end, a tag to its `>`, or a `<` whose kind is not known yet. */
  private open: Section | 'tag' | 'lt' | undefined;
  /** After `<`, the text seen so far; in a section, the last characters, which may begin its end. */
  private partial = '';
  private quote: '"' | "'" | undefined;
  private endTag = false;
  /** The tag's last character outside quotes before its `>`: `/` for an empty-element tag. */
  private previous = '';
  /** A comment's last character so far: `--` must not span two pieces either. */
  private commentLast = '';
  /** Elements open inside the record under way (its own included). */
  private depth = 0;
  /** The text of the record, the root's start tag or its end tag under way, as it came; undefined: nothing kept. */
  private kept: string[] | undefined;
  private rootName = '';
  private count = 0;

  private readonly root: (startTag: string, name: string) => void;
  private readonly record: (text: string, position: number) => void;

  constructor(root: (startTag: string, name: string) => void, record: (text: string, position: number) => void) {
    this.root = root;
    this.record = record;
  }

  push(piece: string): void {
    let at = 0;
    while (at < piece.length) {
      if (this.open === undefined) at = this.characters(piece, at);
      else if (this.open === 'lt') at = this.markupStart(piece, at);
      else if (this.open === 'tag') at = this.tag(piece, at);
      else at = this.section(piece, at, this.open);
    }
  }

  /** After the last piece: the root must have been closed. Answers how many records there were. */
  finish(): number {
    if (this.place !== 'epilog' || this.open !== undefined) throw malformed();
    return this.count;
  }

  /** Character data (references included) to the next `<`: a record's, or blanks anywhere else. */
  private characters(piece: string, at: number): number {
    const lt = piece.indexOf('<', at);
    const end = lt < 0 ? piece.length : lt;
    const text = piece.slice(at, end);
    if (this.place === 'record') this.keep(text);
    else if (!blank.test(text)) this.notBlank();
    if (lt >= 0) {
      this.open = 'lt';
      this.partial = '';
    }
    return end;
  }

  private notBlank(): never {
    // As the whole document's reading said it (src/http/xml/xml-to-value.ts): the root holds elements only.
    if (this.place === 'root') throw new ValidationFailed([{ field: this.rootName, key: 'error.xml.mixedContent' }]);
    throw malformed();
  }

  /** After `<`: which markup it opens, once enough of it has come (`<![CDATA[` is the longest to tell). */
  private markupStart(piece: string, at: number): number {
    const head = this.partial + piece.slice(at, at + 9 - this.partial.length);
    const kind = head.startsWith('<!--') ? 'comment' : head.startsWith('<![CDATA[') ? 'cdata'
      : head.startsWith('<?') ? 'instruction' : head.length >= 2 && head[1] !== '!' ? 'tag'
        : '<!--'.startsWith(head) || '<![CDATA['.startsWith(head) ? undefined : 'declaration';
    if (kind === 'declaration') throw new BadRequest('error.xmlForbidden');
    if (kind === undefined) {
      this.partial = head;
      return piece.length;
    }
    // Only the markup's opening is taken here; what follows is read by its own state.
    const opening = { comment: 4, cdata: 9, instruction: 2, tag: 1 }[kind];
    const taken = opening - this.partial.length;
    this.partial = '';
    this.open = kind;
    if (kind === 'tag') this.tagStart(head[1] === '/');
    else if (kind === 'cdata' && this.place !== 'record' && this.place !== 'root') throw malformed();
    else if (kind === 'comment') this.commentLast = '';
    this.keep(head.slice(0, opening));
    return at + taken;
  }

  /** A tag begins: where it stands says what it is (the root's start or end, a record's, an element in one). */
  private tagStart(endTag: boolean): void {
    this.endTag = endTag;
    this.quote = undefined;
    this.previous = '';
    if (this.place === 'epilog' || (this.place === 'prolog' && endTag)) throw malformed();
    if (this.place === 'prolog' || this.place === 'root') this.kept = [];
    if (this.place === 'root' && !endTag) {
      this.place = 'record';
      this.depth = 0;
    }
  }

  /** A tag's text to its `>`, a `>` inside a quoted attribute value not counted. */
  private tag(piece: string, at: number): number {
    let index = at;
    for (; index < piece.length; index += 1) {
      const char = piece[index]!;
      if (this.quote) {
        if (char === this.quote) this.quote = undefined;
        continue;
      }
      if (char === '>') break;
      if (char === '"' || char === "'") this.quote = char;
      this.previous = char;
    }
    if (index === piece.length) {
      this.keep(piece.slice(at));
      return index;
    }
    this.keep(piece.slice(at, index + 1));
    this.open = undefined;
    this.tagDone(!this.endTag && this.previous === '/');
    return index + 1;
  }

  /** A whole tag: the root's start or end, or a start, end or empty-element tag of (or in) a record. */
  private tagDone(empty: boolean): void {
    if (this.place === 'prolog') {
      const startTag = this.kept!.join('');
      this.kept = undefined;
      this.rootName = /^<([^\s/>]+)/.exec(startTag)?.[1] ?? '';
      this.root(startTag, this.rootName);
      this.place = empty ? 'epilog' : 'root';
      return;
    }
    if (this.place === 'root') {
      // The root's end tag (XML 1.0 §3, element type match).
      const name = /^<\/([^\s>]+)\s*>$/.exec(this.kept!.join(''))?.[1];
      if (name !== this.rootName) throw malformed();
      this.kept = undefined;
      this.place = 'epilog';
      return;
    }
    if (this.endTag) {
      this.depth -= 1;
    } else if (!empty) {
      this.depth += 1;
      // The root is one level and the record another, as the whole document's reading counts them.
      if (this.depth + 1 > maxBodyDepth) throw bodyTooDeep();
    }
    if (this.depth > 0) return;
    const text = this.kept!.join('');
    this.kept = undefined;
    this.place = 'root';
    this.count += 1;
    this.record(text, this.count);
  }

  /** A comment, CDATA section or processing instruction to its end, which may come in a later piece. */
  private section(piece: string, at: number, kind: Section): number {
    const ending = sections[kind];
    const carried = this.partial;
    const text = carried + piece.slice(at);
    const found = text.indexOf(ending);
    // Not found: all but what may begin the end is the section's, the rest carried to the next piece.
    const content = found < 0 ? text.slice(0, Math.max(0, text.length - ending.length + 1)) : text.slice(0, found);
    if (kind === 'comment') {
      // XML 1.0 §2.5: a comment holds no `--`.
      if ((this.commentLast + content).includes('--')) throw malformed();
      this.commentLast = (this.commentLast + content).slice(-1);
    }
    if (kind === 'cdata' && this.place === 'root' && !blank.test(content)) this.notBlank();
    if (found < 0) {
      this.keep(content);
      this.partial = text.slice(content.length);
      return piece.length;
    }
    this.keep(text.slice(0, found + ending.length));
    this.partial = '';
    this.open = undefined;
    return at + found + ending.length - carried.length;
  }

  private keep(text: string): void {
    if (this.kept && text !== '') this.kept.push(text);
  }
}
