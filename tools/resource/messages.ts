// A collection's messages in every locale: the keys its part of openapi.yaml names (`x-message-keys`).
import { words, type Collection, type Field } from './description.ts';

type Texts = Record<string, string>;

function fieldTexts(collection: Collection, field: Field): { en: Texts; de: Texts } {
  const key = `${collection.name}.${field.name}`;
  const label = words(field.name);
  const bound = field.type === 'text' ? 'length' : 'range';
  return {
    en: {
      [`${key}.required`]: `The ${collection.name} needs its ${label}.`,
      [`${key}.${bound}`]: field.type === 'text'
        ? `The ${label} must have {min} to {max} characters.`
        : `The ${label} must be a whole number from {min} to {max}.`,
    },
    // German sentences that name the field as the contract does: a label in German is a translator's to write
    // (over this one, in locales/de.json), not a command's guess; the English words of the name would not do.
    de: {
      [`${key}.required`]: `Das Feld „${field.name}“ ist erforderlich.`,
      [`${key}.${bound}`]: field.type === 'text'
        ? `Das Feld „${field.name}“ muss {min} bis {max} Zeichen lang sein.`
        : `Das Feld „${field.name}“ muss eine ganze Zahl von {min} bis {max} sein.`,
    },
  };
}

/** The messages of every field of `fields` (the collection's unless said), by locale. */
export function messagesOf(collection: Collection, fields: readonly Field[] = collection.fields):
  { en: Texts; de: Texts } {
  const texts = fields.map((field) => fieldTexts(collection, field));
  return {
    en: Object.assign({}, ...texts.map((each) => each.en)),
    de: Object.assign({}, ...texts.map((each) => each.de)),
  };
}
