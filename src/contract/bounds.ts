// The bounds the contract sets, for code that must agree with them: columns, messages, the web page's checks.
import type { Schema } from './document.ts';
import { componentSchema, propertySchema } from './schemas.ts';

/** `{min}` and `{max}` of a message: the schema's length, else its value, bounds. */
export function boundsOf(schema: Schema | undefined): { min?: number; max?: number } {
  return { min: schema?.minLength ?? schema?.minimum, max: schema?.maxLength ?? schema?.maximum };
}

/** A text's length bounds; its `maxLength` must be set (a column is sized by it). */
function textBounds(schema: Schema | undefined, name: string): { min?: number; max: number } {
  const { min, max } = boundsOf(schema);
  if (max === undefined) throw new Error(`openapi.yaml: ${name} has no maxLength`);
  return { min, max };
}

export const textLengths = {
  timezoneName: textBounds(componentSchema('TimezoneName'), 'TimezoneName'),
  sightingMemo: textBounds(componentSchema('SightingMemo'), 'SightingMemo'),
  sightingTimezone: textBounds(componentSchema('SightingTimezone'), 'SightingTimezone'),
  vesselName: textBounds(propertySchema(componentSchema('LanguageMap'), 'en'), 'LanguageMap entries'),
};
