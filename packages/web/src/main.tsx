import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n, type Language } from './lib/i18n';
import './styles.css';

const i18n = await initI18n();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App language={i18n.language as Language} />
  </StrictMode>,
);
