import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vue()],
  logLevel: 'warn',
  build: { emptyOutDir: true },
  // The render-function build: the app has no templates to compile at run time.
  resolve: { alias: { vue: 'vue/dist/vue.runtime.esm-bundler.js' } },
});
