// MkDocs 1.4 (mkdocs theme) output from Debian's mkdocs-doc: see sites/mkdocs/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('mkdocs');
