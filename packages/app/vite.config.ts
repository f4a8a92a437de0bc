import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './build-tools/precompress.ts';
import { trimIonicReactPlugin } from './build-tools/trim-ionic-react.ts';

const apiProxy = { '/api': 'http://127.0.0.1:8080' };

export default defineConfig({
  plugins: [
    react(),
    trimIonicReactPlugin(),
    VitePWA({
      // A worker of our own (src/service-worker/sw.ts): Workbox's precache and navigation routes
      // as the generated worker had them, plus the periodic background sync's refresh.
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'sw.ts',
      // The server's CSP forbids inline scripts, and the spec wants registration 30 s after the
      // app is stable: src/service-worker registers it with workbox-window, so the plugin must
      // not emit a registration script of its own.
      injectRegister: false,
      devOptions: { enabled: false },
      manifest: {
        name: 'Docket',
        short_name: 'Docket',
        description: 'Track legislation on your device, offline first, synced after sign-in.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f4f6fb',
        theme_color: '#1f3a8a',
        icons: [
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
        ],
      },
      // The glob below already picks icon.svg out of dist, and the plugin always adds the
      // manifest itself; letting it add the manifest icons too would precache them twice.
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webp,woff,woff2,ttf,otf}'],
        // pdf.js (1.6 MB) is for "Get text" on a PDF version, which needs the network anyway:
        // fetched when first used, not installed with the app.
        globIgnores: ['**/pdf-reader-*.js', '**/pdf-worker-*.js'],
        // The main chunk is large (Ionic); skipping it from the precache would break offline use.
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // One classic script, as the generated worker was: registered without `type: 'module'`.
        rollupFormat: 'iife',
      },
    }),
    // Last: brotli and gzip copies of the whole output, the service worker's files included.
    precompress(),
  ],
  build: {
    rolldownOptions: {
      treeshake: {
        // @ionic/react imports every Ionic component module to wrap it; its wrappers are pure,
        // but @ionic/core declares no sideEffects, so each unused component (ion-datetime, menu,
        // range …) stayed in the bundle. A component module only defines its element when
        // asked, so it has no side effect of its own.
        moduleSideEffects: [
          { test: /@ionic\/core\/components\/ion-[a-z-]+\.js$/, sideEffects: false },
        ],
      },
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
});
