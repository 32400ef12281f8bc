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
    de: {
      [`${key}.required`]: `Das Feld „${label}“ ist erforderlich.`,
      [`${key}.${bound}`]: field.type === 'text'
        ? `Das Feld „${label}“ muss {min} bis {max} Zeichen haben.`
        : `Das Feld „${label}“ muss eine ganze Zahl von {min} bis {max} sein.`,
    },
  };
}

/** The messages of every field, by locale. */
export function messagesOf(collection: Collection): { en: Texts; de: Texts } {
  const texts = collection.fields.map((field) => fieldTexts(collection, field));
  return {
    en: Object.assign({}, ...texts.map((each) => each.en)),
    de: Object.assign({}, ...texts.map((each) => each.de)),
  };
}
