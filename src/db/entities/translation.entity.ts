// One text of a vessel's name in one language (`en`, `de`, `pt-BR` …).
import { defineEntity, p } from '@mikro-orm/core';
import { Vessel } from './vessel.entity.ts';
import { textLength } from '../../contract/bounds.ts';

export const TranslationSchema = defineEntity({
  name: 'Translation',
  tableName: 'vessel_name',
  uniques: [{ properties: ['vessel', 'languageKey'] }],
  indexes: [{ name: 'vessel_name_text_trgm',
    expression: 'create index "vessel_name_text_trgm" on "vessel_name" using gin ("text" gin_trgm_ops)' }],
  properties: {
    translationId: p.bigint('number').primary().autoincrement(),
    vessel: () =>
      p.manyToOne(Vessel).deleteRule('cascade').updateRule('cascade').fieldName('vessel_id').foreignKeyName(
      'vessel_name_vessel_id_fkey'),
    languageKey: p.string().length(35),
    text: p.string().length(textLength('LanguageMap', 'en').max),
  },
});

export class Translation extends TranslationSchema.class {}
TranslationSchema.setClass(Translation);
