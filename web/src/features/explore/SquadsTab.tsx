import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SquadPage } from './SquadPage';
import { useT } from '../../shared/i18n';

export function SquadsTab() {
  const t = useT();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState(1);
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(input.trim());
      setPages(1);
    }, 300);
    return () => clearTimeout(t);
  }, [input]);
  return (
    <div>
      <div className="toolbar">
        <input placeholder={t('squads.search')} value={input} onChange={(e) => setInput(e.target.value)} />
        <button className="btn btn-primary" onClick={() => navigate('/create-squad')}>
          {t('explore.createOwn')}
        </button>
      </div>
      <div className="grid grid-2">
        {Array.from({ length: pages }, (_, i) => (
          <SquadPage key={`${search}-${i}`} page={i + 1} search={search} last={i + 1 === pages} onMore={() => setPages(pages + 1)} />
        ))}
      </div>
    </div>
  );
}
