// The bounds the contract sets, for code that must agree with them: column sizes, messages, the web page's checks.
import type { Schema } from './document.ts';
import { componentSchema, schemaAt } from './schemas.ts';

/** `{min}` and `{max}` of a message: the schema's length bounds, else its value bounds, else its count bounds. */
export const boundsOf = (schema: Schema | undefined) => ({
  min: schema?.minLength ?? schema?.minimum ?? schema?.minProperties,
  max: schema?.maxLength ?? schema?.maximum ?? schema?.maxProperties,
});

/** The length bounds of a component schema's text, or of the text at a field path below it (`'LanguageMap', 'en'`). */
export function textLength(component: string, ...path: string[]): { min?: number; max: number } {
  const { min, max } = boundsOf(schemaAt(componentSchema(component), path));
  if (max === undefined) throw new Error(
    `openapi.yaml: ${[component, ...path].join('.')} has no maxLength, which its column needs`);
  return { min, max };
}
