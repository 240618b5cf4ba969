// GNU Texinfo 6.8 (makeinfo --html) output from Debian's diffutils-doc: see sites/texinfo-diffutils/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('texinfo-diffutils');
