// What the generic CRUD machinery needs to know about one resource; each resource is one such descriptor.
import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Locale } from '../i18n/messages.ts';
import type { AccessRules } from '../auth/access-rules.ts';

export interface RequestContext {
  em: EntityManager;
  locale: Locale;
}

export type WireRecord = Record<string, unknown>;

export interface ResourceDescriptor<E extends object = object> {
  /** The collection's path segment and the XML root element of one record. */
  name: string;
  entity: EntityClass<E>;
  /** The id property; it has the same name on the wire. */
  idProperty: keyof E & string;
  /** Relations the views read, loaded with every query. */
  populate: readonly string[];
  /** List query parameters that are equality filters: wire name -> entity property (a relation compares by its id). */
  filters: Readonly<Record<string, string>>;
  /** A list query parameter that, when `true`, keeps only the caller's records: the entity property holding the creator. */
  ownerFilter?: { parameter: string; property: keyof E & string };
  access: AccessRules;
  listView(entity: E, locale: Locale): WireRecord;
  detailView(entity: E, locale: Locale): WireRecord;
  /** Copies a validated create or update body onto the entity (a replacement: absent fields are cleared). */
  write(entity: E, body: WireRecord, context: RequestContext): Promise<void>;
  /** The query-by-example condition for a validated example. */
  example(body: WireRecord, context: RequestContext): FilterQuery<E>;
}
