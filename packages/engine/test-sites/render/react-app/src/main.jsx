// A single-page app whose every link, image and id is made by script (issue 35's test site).
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router';

function Layout() {
  return (
    <>
      <nav>
        <Link to="/">Home</Link> <Link to="/about">About</Link>{' '}
        <Link to="/docs#install">Install</Link> <Link to="/missing-page">Old page</Link>
      </nav>
      <Outlet />
    </>
  );
}

function Home() {
  const [items, setItems] = useState([]);
  useEffect(() => {
    fetch('/api/items.json')
      .then((answer) => answer.json())
      .then(setItems)
      .catch(() => setItems([]));
    fetch('/api/broken').catch(() => undefined);
  }, []);
  return (
    <main>
      <h1>Home</h1>
      <img src="/img/logo.png" alt="logo" />
      <img src="/img/missing.png" alt="missing" />
      <ul>
        {items.map((item) => (
          <li key={item}>
            <Link to={`/docs#${item}`}>{item}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}

function About() {
  useEffect(() => console.error('React app: the settings could not be loaded'), []);
  return <h1>About</h1>;
}

function Docs() {
  return (
    <main>
      <h1>Docs</h1>
      <h2 id="install">Install</h2>
      <h2 id="usage">Usage</h2>
    </main>
  );
}

const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'about', element: <About /> },
      { path: 'docs', element: <Docs /> },
    ],
  },
]);

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
