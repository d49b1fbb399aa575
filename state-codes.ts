/**
 * Three-letter codes of issuing states and nationalities (ICAO 9303 Part 3 §5): ISO 3166-1 alpha-3, plus
 * ICAO's own codes. The list only grades a code: a code of the right shape outside it is a warning, never
 * a refusal (issuers and specimens use codes a list lags behind; npm `mrz` refuses `UTO` and so every
 * ICAO specimen).
 */

const ISO_3166_ALPHA_3 = `
AFG ALA ALB DZA ASM AND AGO AIA ATA ATG ARG ARM ABW AUS AUT AZE BHS BHR BGD BRB BLR BEL BLZ BEN BMU BTN BOL BES
BIH BWA BVT BRA IOT BRN BGR BFA BDI CPV KHM CMR CAN CYM CAF TCD CHL CHN CXR CCK COL COM COG COD COK CRI CIV HRV
CUB CUW CYP CZE DNK DJI DMA DOM ECU EGY SLV GNQ ERI EST SWZ ETH FLK FRO FJI FIN FRA GUF PYF ATF GAB GMB GEO DEU
GHA GIB GRC GRL GRD GLP GUM GTM GGY GIN GNB GUY HTI HMD VAT HND HKG HUN ISL IND IDN IRN IRQ IRL IMN ISR ITA JAM
JPN JEY JOR KAZ KEN KIR PRK KOR KWT KGZ LAO LVA LBN LSO LBR LBY LIE LTU LUX MAC MDG MWI MYS MDV MLI MLT MHL MTQ
MRT MUS MYT MEX FSM MDA MCO MNG MNE MSR MAR MOZ MMR NAM NRU NPL NLD NCL NZL NIC NER NGA NIU NFK MKD MNP NOR OMN
PAK PLW PSE PAN PNG PRY PER PHL PCN POL PRT PRI QAT REU ROU RUS RWA BLM SHN KNA LCA MAF SPM VCT WSM SMR STP SAU
SEN SRB SYC SLE SGP SXM SVK SVN SLB SOM ZAF SGS SSD ESP LKA SDN SUR SJM SWE CHE SYR TWN TJK TZA THA TLS TGO TKL
TON TTO TUN TUR TKM TCA TUV UGA UKR ARE GBR USA UMI URY UZB VUT VEN VNM VGB VIR WLF ESH YEM ZMB ZWE`;

/**
 * ICAO's additions: Germany's `D`, the British nationality categories, Kosovo, the EU, UN and other
 * organisations' travel documents, stateless persons and refugees (`XXA`, `XXB`, `XXC`), unspecified
 * nationality (`XXX`), and codes of former issuers still found on documents in circulation.
 */
const ICAO_CODES = `
D<< GBD GBN GBO GBP GBS RKS EUE UNO UNA UNK XBA XIM XCC XCE XCO XDC XEC XES XMP XOM XPO XXA XXB XXC XXX ANT NTZ`;

/** The specimen state of ICAO 9303's examples ("Utopia"). */
const SPECIMEN_CODES = new Set(['UTO']);

const KNOWN = new Set(`${ISO_3166_ALPHA_3} ${ICAO_CODES}`.split(/\s+/).filter((c) => c.length > 0));

/** A code of one to three letters padded with fillers to three characters. */
const CODE_SHAPE = /^[A-Z](?:[A-Z]{2}|[A-Z]<|<<)$/;

export type StateCodeStatus = 'known' | 'specimen' | 'unknown' | 'invalid';

/**
 * Grades a three-character state code: `invalid` when its shape is wrong (digits, a leading filler),
 * `specimen` for ICAO's `UTO`, `known` for ISO 3166-1 and ICAO codes, `unknown` otherwise.
 *
 * @example
 * classifyStateCode('UTO'); // 'specimen'
 * classifyStateCode('D<<'); // 'known'
 * classifyStateCode('QQQ'); // 'unknown'
 * classifyStateCode('U1O'); // 'invalid'
 */
export function classifyStateCode(code: string): StateCodeStatus {
  if (!CODE_SHAPE.test(code)) return 'invalid';
  if (SPECIMEN_CODES.has(code)) return 'specimen';
  return KNOWN.has(code) ? 'known' : 'unknown';
}
