// The scratch project's Vite entry: what a site's bundle does with the package.
import { start } from 'capell-webmcp';

start({ apiBase: '/agent/v1' });
