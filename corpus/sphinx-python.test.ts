// Sphinx 5.3 (Python docs theme) output from Debian's python3.11-doc: see sites/sphinx-python/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('sphinx-python');
