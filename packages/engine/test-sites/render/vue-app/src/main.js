// A single-page app whose every link, image and id is made by script (issue 35's test site).
import { createApp, h, onMounted, ref } from 'vue';
import { createRouter, createWebHistory, RouterLink, RouterView } from 'vue-router';

const Home = {
  setup() {
    const failed = ref(false);
    onMounted(() => {
      fetch('/api/vue-broken').then((answer) => (failed.value = !answer.ok));
      const picture = document.createElement('img');
      picture.src = '/img/vue-missing.png';
      picture.alt = 'made by script';
      document.querySelector('main')?.append(picture);
    });
    return () =>
      h('main', [
        h('h1', 'Home'),
        h('img', { src: '/img/vue-logo.png', alt: 'logo' }),
        h('p', failed.value ? 'The news could not be loaded.' : 'Loading news'),
      ]);
  },
};

const Guide = {
  render: () =>
    h('main', [h('h1', 'Guide'), h('h2', { id: 'setup' }, 'Setup'), h('h2', { id: 'use' }, 'Use')]),
};

const Faq = { render: () => h('main', [h('h1', 'FAQ')]) };

const App = {
  render: () => [
    h('nav', [
      h(RouterLink, { to: '/' }, () => 'Home'),
      h(RouterLink, { to: '/guide#setup' }, () => 'Setup'),
      h(RouterLink, { to: '/faq' }, () => 'FAQ'),
      h(RouterLink, { to: '/nowhere' }, () => 'Gone'),
    ]),
    h(RouterView),
  ],
};

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', component: Home },
    { path: '/guide', component: Guide },
    { path: '/faq', component: Faq },
  ],
});

createApp(App).use(router).mount('#app');
