// Doxygen 1.9.4 output from Debian's doxygen-doc: see sites/doxygen/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('doxygen');
