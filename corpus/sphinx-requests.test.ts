// Sphinx 5.3 (alabaster theme) output from Debian's python-requests-doc: see sites/sphinx-requests/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('sphinx-requests');
