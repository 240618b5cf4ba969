// Test-site kit for the engine's scenario tests (and for other packages' tests that need a site to
// scan): real servers on 127.0.0.1, certificates made at test time, DNS-free host names, and
// helpers that collect a scan's events into complete, comparable results.
export {
  startTestSite,
  closedPort,
  type TestSite,
  type TestSiteOptions,
  type SiteRoutes,
  type Route,
  type RouteResponse,
  type RouteHandler,
  type RouteContext,
  type RecordedRequest,
} from './test-site.js';
export {
  htmlPage,
  linksPage,
  redirect,
  statusOnly,
  connectionReset,
  sequence,
  byMethod,
  headRefused,
  headDropped,
  cloudflareChallenge,
  hugePage,
  sizedFile,
  chunkedFile,
  windows1252,
  type HugePage,
} from './responses.js';
export {
  testCertificates,
  createCertificateAuthority,
  issueCertificate,
  selfSignedCertificate,
  certificateDate,
  type TlsIdentity,
  type CertificateAuthority,
  type CertificateOptions,
  type TestCertificates,
} from './certificates.js';
export { createLookup, type TestLookup } from './lookup.js';
export {
  collectScan,
  fastEngineOptions,
  brokenSummary,
  urlOutcomes,
  positionOf,
  eventsOfType,
  type CollectedScan,
  type BrokenUrl,
  type UrlOutcome,
} from './collect.js';
export {
  findingsGroundTruth,
  findingsScanSettings,
  findingsSitemap,
  findingsSitePages,
} from './findings-site.js';
