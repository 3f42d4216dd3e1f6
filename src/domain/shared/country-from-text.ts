// Offline fallback for a travel entry's destinationCountryCode: recognise a country or a major
// city in free destination text, in English, in the languages of our tenants (hr, sl, cs, sk)
// and in the country's own language. No geocoding service is called: the core does no I/O, and
// an unknown place yields null rather than a guess.
//
// Matching: the text and the names are folded (lower case, diacritics and punctuation removed),
// names match whole words only, a longer name wins over a shorter one inside it ("Novi Sad"
// over "Sad"), and when the text names places in several countries the LAST one wins, because
// destination text ends with the most specific or final place ("Hotel London, Zagreb" -> HR,
// "Zagreb - München" -> DE).

const GAZETTEER: ReadonlyArray<readonly [code: string, names: string]> = [
  // Countries: English | Croatian | Slovenian | Czech | Slovak | own language
  ['HR', 'Croatia|Hrvatska|Hrvaška|Chorvatsko|Chorvátsko|Kroatien'],
  ['SI', 'Slovenia|Slovenija|Slovinsko|Slowenien'],
  ['CZ', 'Czechia|Czech Republic|Češka|Česko|Česká republika|Tschechien'],
  ['SK', 'Slovakia|Slovačka|Slovaška|Slovensko|Slovenská republika|Slowakei'],
  ['AT', 'Austria|Austrija|Avstrija|Rakousko|Rakúsko|Österreich'],
  ['DE', 'Germany|Njemačka|Nemčija|Německo|Nemecko|Deutschland'],
  ['HU', 'Hungary|Mađarska|Madžarska|Maďarsko|Magyarország'],
  ['IT', 'Italy|Italija|Itálie|Taliansko|Italia'],
  ['RS', 'Serbia|Srbija|Srbsko'],
  ['BA', 'Bosnia and Herzegovina|Bosnia|Bosna i Hercegovina|Bosna in Hercegovina|Bosna a Hercegovina|BiH'],
  ['ME', 'Montenegro|Crna Gora|Črna gora|Černá Hora|Čierna Hora'],
  ['MK', 'North Macedonia|Sjeverna Makedonija|Severna Makedonija|Severní Makedonie|Severné Macedónsko'],
  ['AL', 'Albania|Albanija|Albánie|Albánsko|Shqipëria'],
  ['XK', 'Kosovo'],
  ['FR', 'France|Francuska|Francija|Francie|Francúzsko'],
  [
    'GB',
    'United Kingdom|Great Britain|England|Velika Britanija|Ujedinjeno Kraljevstvo|Združeno kraljestvo|Spojené království|Spojené kráľovstvo|Veľká Británia',
  ],
  ['IE', 'Ireland|Irska|Irsko|Írsko|Éire'],
  ['BE', 'Belgium|Belgija|Belgie|Belgicko|België|Belgique'],
  ['NL', 'Netherlands|Nizozemska|Nizozemsko|Holandsko|Nederland'],
  ['LU', 'Luxembourg|Luksemburg|Lucembursko|Luxembursko'],
  ['CH', 'Switzerland|Švicarska|Švica|Švýcarsko|Švajčiarsko|Schweiz|Suisse|Svizzera'],
  ['PL', 'Poland|Poljska|Polsko|Poľsko|Polska'],
  ['ES', 'Spain|Španjolska|Španija|Španělsko|Španielsko|España'],
  ['PT', 'Portugal|Portugalska|Portugalsko'],
  ['GR', 'Greece|Grčka|Grčija|Řecko|Grécko|Ellada'],
  ['RO', 'Romania|Rumunjska|Romunija|Rumunsko|România'],
  ['BG', 'Bulgaria|Bugarska|Bolgarija|Bulharsko'],
  ['TR', 'Turkey|Türkiye|Turska|Turčija|Turecko'],
  ['DK', 'Denmark|Danska|Dánsko|Danmark'],
  ['SE', 'Sweden|Švedska|Švédsko|Sverige'],
  ['NO', 'Norway|Norveška|Norsko|Nórsko|Norge'],
  ['FI', 'Finland|Finska|Finsko|Fínsko|Suomi'],
  ['US', 'United States|USA|Sjedinjene Američke Države|ZDA|Spojené státy|Spojené štáty'],
  ['UA', 'Ukraine|Ukrajina'],
  // Major cities: local name | English | hr/sl/cs/sk exonyms
  ['HR', 'Zagreb|Split|Rijeka|Osijek|Zadar|Dubrovnik|Pula|Varaždin|Šibenik'],
  ['SI', 'Ljubljana|Maribor|Celje|Koper|Kranj|Novo mesto'],
  ['CZ', 'Praha|Prague|Prag|Brno|Ostrava|Plzeň|Olomouc'],
  ['SK', 'Bratislava|Košice|Žilina|Nitra|Banská Bystrica|Prešov|Trnava'],
  ['AT', 'Wien|Vienna|Beč|Dunaj|Vídeň|Viedeň|Graz|Gradec|Salzburg|Linz|Innsbruck|Klagenfurt|Celovec'],
  ['DE', 'Berlin|München|Munich|Minhen|Mnichov|Frankfurt|Hamburg|Köln|Cologne|Stuttgart|Düsseldorf'],
  ['HU', 'Budapest|Budimpešta|Budapešť'],
  ['IT', 'Roma|Rome|Rim|Řím|Rím|Milano|Milan|Venezia|Venice|Venecija|Benetke|Trieste|Trst|Firenze|Florence'],
  ['FR', 'Paris|Pariz|Paříž|Paríž|Lyon|Marseille|Strasbourg'],
  ['GB', 'London|Londýn|Manchester|Edinburgh'],
  ['BE', 'Bruxelles|Brussels|Brussel|Bruselj|Brusel|Antwerpen|Antwerp'],
  ['NL', 'Amsterdam|Rotterdam|Den Haag|The Hague'],
  ['LU', 'Luxembourg City'],
  ['CH', 'Zürich|Zurich|Ženeva|Geneva|Genève|Basel|Bern'],
  ['RS', 'Beograd|Belgrade|Bělehrad|Belehrad|Novi Sad|Niš'],
  ['BA', 'Sarajevo|Mostar|Banja Luka|Tuzla'],
  ['ME', 'Podgorica|Budva|Kotor'],
  ['MK', 'Skopje|Skoplje'],
  ['AL', 'Tirana'],
  ['XK', 'Priština|Prishtina|Pristina'],
  ['PL', 'Warszawa|Warsaw|Varšava|Kraków|Krakow|Krakov'],
  ['ES', 'Madrid|Barcelona|Valencia|Sevilla'],
  ['PT', 'Lisboa|Lisbon|Lizbona|Lisabon|Porto'],
  ['GR', 'Athens|Atena|Atene|Atény|Thessaloniki|Solun'],
  ['RO', 'Bucharest|București|Bukurešt|Bukurešta|Bukurešť'],
  ['BG', 'Sofia|Sofija'],
  ['TR', 'Istanbul|İstanbul|Carigrad|Ankara'],
  ['DK', 'Copenhagen|København|Kopenhagen|Kodaň'],
  ['SE', 'Stockholm'],
  ['NO', 'Oslo'],
  ['FI', 'Helsinki'],
  ['IE', 'Dublin'],
  ['US', 'New York|Chicago|San Francisco|Los Angeles'],
];

/** Lower case, diacritics and punctuation removed, single spaces, padded for whole-word search. */
export function foldPlaceText(text: string): string {
  const folded = text
    .toLowerCase()
    // Letters that NFD does not decompose.
    .replace(/đ/g, 'd')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/ı/g, 'i')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return ` ${folded} `;
}

const NAMES: ReadonlyArray<{ key: string; code: string }> = GAZETTEER.flatMap(([code, names]) =>
  names.split('|').map((name) => ({ key: foldPlaceText(name), code })),
)
  // Longest first, so "novi sad" claims its span before any shorter name inside it.
  .sort((a, b) => b.key.length - a.key.length);

/** The ISO 3166-1 alpha-2 code named by destination text, or null when no known place is named. */
export function countryFromText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const folded = foldPlaceText(text);
  const taken: boolean[] = new Array<boolean>(folded.length).fill(false);
  let best: { at: number; code: string } | null = null;
  for (const { key, code } of NAMES) {
    for (let at = folded.indexOf(key); at !== -1; at = folded.indexOf(key, at + 1)) {
      // Padding spaces are shared between neighbouring words, so only the letters are claimed.
      const from = at + 1;
      const to = at + key.length - 1;
      if (taken.slice(from, to).some(Boolean)) continue;
      taken.fill(true, from, to);
      if (best === null || at > best.at) best = { at, code };
    }
  }
  return best?.code ?? null;
}
