// The bounds the contract sets, for code that must agree with them: column sizes, messages, the web page's checks.
import type { Schema } from './document.ts';
import { componentSchema, propertySchema } from './schemas.ts';

/** `{min}` and `{max}` of a message: the schema's length bounds, else its value bounds. */
export const boundsOf = (schema: Schema | undefined) => ({ min: schema?.minLength ?? schema?.minimum, max: schema?.maxLength ?? schema?.maximum });

function textLength(schema: Schema | undefined, name: string): { min?: number; max: number } {
  const { min, max } = boundsOf(schema);
  if (max === undefined) throw new Error(`openapi.yaml: ${name} has no maxLength, which its column needs`);
  return { min, max };
}

export const textLengths = {
  timezoneName: textLength(componentSchema('TimezoneName'), 'TimezoneName'),
  sightingMemo: textLength(componentSchema('SightingMemo'), 'SightingMemo'),
  sightingTimezone: textLength(componentSchema('SightingTimezone'), 'SightingTimezone'),
  vesselName: textLength(propertySchema(componentSchema('LanguageMap'), 'en'), 'a LanguageMap text'),
};
