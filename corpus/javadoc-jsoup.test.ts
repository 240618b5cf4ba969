// javadoc (OpenJDK 17) output from Debian's libjsoup-java-doc: see sites/javadoc-jsoup/SOURCE.md.
import { describeRealSite } from './real-site.js';

describeRealSite('javadoc-jsoup');
