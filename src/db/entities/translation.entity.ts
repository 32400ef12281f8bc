// One text of a vessel's name in one language (`en`, `de`, `pt-BR` …).
import { defineEntity, p } from '@mikro-orm/core';
import { Vessel } from './vessel.entity.ts';

export const TranslationSchema = defineEntity({
  name: 'Translation',
  tableName: 'vessel_name',
  uniques: [{ properties: ['vessel', 'languageKey'] }],
  properties: {
    translationId: p.bigint('number').primary().autoincrement(),
    vessel: () => p.manyToOne(Vessel).deleteRule('cascade').fieldName('vessel_id'),
    languageKey: p.string().length(35),
    text: p.string().length(200),
  },
});

export class Translation extends TranslationSchema.class {}
TranslationSchema.setClass(Translation);
