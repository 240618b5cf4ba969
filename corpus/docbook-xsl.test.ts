// DocBook XSL 1.79 (chunked HTML, ISO-8859-1) output from Debian's docbook-xsl-doc-html: see sites/docbook-xsl/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('docbook-xsl');
