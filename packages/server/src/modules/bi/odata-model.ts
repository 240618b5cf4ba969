import { biEntitySets, type BiEntitySet } from '@linkaudit/core';

/**
 * The OData v4 model of a scan's feed: four flat entity sets, their properties and keys, the
 * CSDL document ($metadata) and the service document. No SQL here: the repository maps each
 * property to its column.
 */

export type EdmType = 'Edm.String' | 'Edm.Int32' | 'Edm.Int64' | 'Edm.Double' | 'Edm.Boolean';

export interface FeedProperty {
  name: string;
  type: EdmType;
  nullable: boolean;
}

export interface FeedEntitySet {
  name: BiEntitySet;
  typeName: string;
  /** Key properties, in order; rows are paged in this order unless $orderby says otherwise. */
  keys: string[];
  properties: FeedProperty[];
}

export const odataNamespace = 'LinkAudit';

const string = (name: string, nullable = true): FeedProperty => ({
  name,
  type: 'Edm.String',
  nullable,
});
const int32 = (name: string, nullable = false): FeedProperty => ({
  name,
  type: 'Edm.Int32',
  nullable,
});
const int64 = (name: string, nullable = false): FeedProperty => ({
  name,
  type: 'Edm.Int64',
  nullable,
});
const double = (name: string): FeedProperty => ({ name, type: 'Edm.Double', nullable: true });
const boolean = (name: string): FeedProperty => ({ name, type: 'Edm.Boolean', nullable: false });

/** Field names follow the report rows of SPEC §3 (targetUri, sourceUri, statusDetail…). */
export const feedEntitySets: Record<BiEntitySet, FeedEntitySet> = {
  Links: {
    name: 'Links',
    typeName: 'Link',
    keys: ['id'],
    properties: [
      int32('id'),
      string('sourceUri', false),
      string('targetUri', false),
      string('statusDetail', false),
      int32('statusCode', true),
      string('state', false),
      string('failureReason'),
      string('errorMessage'),
      int32('referenceCount'),
      boolean('internal'),
      string('contentType'),
      int64('size', true),
      string('element', false),
      int32('line'),
      int32('column'),
      string('anchor'),
      string('anchorState'),
    ],
  },
  Pages: {
    name: 'Pages',
    typeName: 'Page',
    keys: ['id'],
    properties: [
      int32('id'),
      string('uri', false),
      int32('statusCode', true),
      string('contentType'),
      int64('htmlSize'),
      int64('contentSize'),
      int32('depth'),
      string('title'),
      double('pageRank'),
    ],
  },
  Rules: {
    name: 'Rules',
    typeName: 'RuleViolation',
    // A violation is its page, its rule and its place on the page.
    keys: ['pageId', 'ruleId', 'line', 'column'],
    properties: [
      int32('pageId'),
      string('uri', false),
      string('ruleId', false),
      string('ruleName', false),
      int32('ruleCategoryID'),
      string('category', false),
      int32('line'),
      int32('column'),
      string('snippet'),
      string('ruleNote'),
    ],
  },
  FileTypes: {
    name: 'FileTypes',
    typeName: 'FileType',
    keys: ['contentType'],
    properties: [string('contentType', false), int64('count'), int64('totalSize')],
  },
};

export function isEntitySet(name: string): name is BiEntitySet {
  return (biEntitySets as readonly string[]).includes(name);
}

export function propertyOf(set: FeedEntitySet, name: string): FeedProperty | undefined {
  return set.properties.find((property) => property.name === name);
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The CSDL XML document (OData v4 Part 3) answered at `$metadata`. */
export function metadataDocument(): string {
  const types = biEntitySets.map((name) => {
    const set = feedEntitySets[name];
    const keys = set.keys.map((key) => `<PropertyRef Name="${xml(key)}"/>`).join('');
    const properties = set.properties
      .map(
        (property) =>
          `<Property Name="${xml(property.name)}" Type="${property.type}" Nullable="${String(property.nullable)}"/>`,
      )
      .join('');
    return `<EntityType Name="${set.typeName}"><Key>${keys}</Key>${properties}</EntityType>`;
  });
  const sets = biEntitySets.map(
    (name) =>
      `<EntitySet Name="${name}" EntityType="${odataNamespace}.${feedEntitySets[name].typeName}"/>`,
  );
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">' +
    '<edmx:DataServices>' +
    `<Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${odataNamespace}">` +
    types.join('') +
    `<EntityContainer Name="Scan">${sets.join('')}</EntityContainer>` +
    '</Schema></edmx:DataServices></edmx:Edmx>'
  );
}

/** The service document (OData v4 JSON Format §5) of the feed at `serviceRoot`. */
export function serviceDocument(serviceRoot: string): Record<string, unknown> {
  return {
    '@odata.context': `${serviceRoot}$metadata`,
    value: biEntitySets.map((name) => ({ name, kind: 'EntitySet', url: name })),
  };
}
