// GET /api/v1/reference/croatian-municipalities and /slovenian-municipalities: the shipped lists
// (docs/reference-data.md), the same for every tenant, filtered by `search` and `code`, cacheable
// by anyone (ETag of the list version and the query, a day's max-age, 304 on If-None-Match).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { croatianMunicipalities, filterMunicipalities, slovenianMunicipalities } from '../../../application/reference/municipalities.js';
import { errorResponses, StringEnum } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { etagFor, NotModified, notModified } from './conditional.js';

/** The lists change only with a release: shared caches may keep them for a day. */
export const MUNICIPALITY_CACHE_CONTROL = 'public, max-age=86400';

export const CroatianMunicipality = Type.Object(
  {
    code: Type.String({
      pattern: '^[0-9]{5}$',
      description: 'DGU register number of the town or municipality (5 digits, leading zeros kept; the JOPPD "šifra općine/grada").',
    }),
    name: Type.String({ description: 'Name with Croatian diacritics; Istrian bilingual units in both languages.' }),
    type: StringEnum(['grad', 'općina'] as const, { description: '`grad` (town) or `općina` (municipality).' }),
    county: Type.String({ description: 'County (županija); Zagreb: `Grad Zagreb`.' }),
  },
  {
    $id: 'CroatianMunicipality',
    examples: [{ code: '00604', name: 'Čakovec', type: 'grad', county: 'Međimurska županija' }],
  },
);

export const SlovenianMunicipality = Type.Object(
  {
    code: Type.String({ pattern: '^[0-9]{3}$', description: 'GURS municipality number (3 digits, 001–213; as in ISO 3166-2:SI).' }),
    name: Type.String({ description: 'Name as the GURS register writes it.' }),
    region: Type.String({ description: 'Statistical region (NUTS 3).' }),
  },
  { $id: 'SlovenianMunicipality', examples: [{ code: '061', name: 'Ljubljana', region: 'Osrednjeslovenska' }] },
);

export const CroatianMunicipalityList = Type.Object(
  { items: Type.Array(ref(CroatianMunicipality)) },
  {
    $id: 'CroatianMunicipalityList',
    examples: [{ items: [{ code: '00604', name: 'Čakovec', type: 'grad', county: 'Međimurska županija' }] }],
  },
);
export const SlovenianMunicipalityList = Type.Object(
  { items: Type.Array(ref(SlovenianMunicipality)) },
  { $id: 'SlovenianMunicipalityList', examples: [{ items: [{ code: '061', name: 'Ljubljana', region: 'Osrednjeslovenska' }] }] },
);

const SEARCH = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'Prefix of the name or of any word in it, ignoring case and diacritics (č = c, đ = d); punctuation counts as a space: `cak` finds Čakovec, `gradec` finds Dobrova-Polhov Gradec.',
  }),
);

/** The query of a list: a name search, or exactly one code of the list's format. */
const queryOf = (codePattern: string, codeText: string, example: string) =>
  Type.Object(
    {
      search: SEARCH,
      code: Type.Optional(Type.String({ pattern: codePattern, description: `Exactly this code (${codeText}).`, examples: [example] })),
    },
    { additionalProperties: false },
  );

/** The two lists differ only in their data, their item schema and their code format. */
const LISTS = [
  {
    path: '/reference/croatian-municipalities',
    summary: 'Croatian towns and municipalities (556), by code',
    etagName: 'hr-municipalities',
    query: queryOf('^[0-9]{5}$', '5 digits', '01333'),
    response: CroatianMunicipalityList,
    list: croatianMunicipalities,
  },
  {
    path: '/reference/slovenian-municipalities',
    summary: 'Slovenian municipalities (212), by code',
    etagName: 'si-municipalities',
    query: queryOf('^[0-9]{3}$', '3 digits', '061'),
    response: SlovenianMunicipalityList,
    list: slovenianMunicipalities,
  },
] as const;

export const municipalityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const l of LISTS) {
    app.get(
      l.path,
      {
        config: { scope: 'read' },
        schema: {
          tags: ['Reference data'],
          summary: l.summary,
          description:
            'The same list for every company. Cache it: the answer carries an ETag (of the list version and the query) and `Cache-Control: public, max-age=86400`, and a request with If-None-Match gets 304 while the list is unchanged.',
          querystring: l.query,
          response: { 200: ref(l.response), 304: NotModified, ...errorResponses() },
        },
      },
      async (request, reply) => {
        const list = l.list();
        const etag = etagFor([l.etagName, list.version, request.query.search ?? null, request.query.code ?? null]);
        if (notModified(request, reply, etag, MUNICIPALITY_CACHE_CONTROL)) return reply;
        return { items: filterMunicipalities<{ code: string; name: string }>(list, request.query) };
      },
    );
  }
};

export const municipalitySchemas = [CroatianMunicipality, SlovenianMunicipality, CroatianMunicipalityList, SlovenianMunicipalityList];
