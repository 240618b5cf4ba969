import {
  ApiOutlined,
  BarChartOutlined,
  CalendarOutlined,
  CodeOutlined,
  DisconnectOutlined,
  FileImageOutlined,
  FileSearchOutlined,
  LinkOutlined,
  SafetyCertificateOutlined,
  TrophyOutlined,
  WarningOutlined,
  ColumnHeightOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** What a scan checks (SPEC §1), in the order the features page tells it; texts under `features.items.<id>`. */
export const featureList: Array<{ id: string; icon: ComponentType; onHome?: boolean }> = [
  { id: 'brokenLinks', icon: DisconnectOutlined, onHome: true },
  { id: 'images', icon: FileImageOutlined, onHome: true },
  { id: 'anchors', icon: LinkOutlined },
  { id: 'certificates', icon: SafetyCertificateOutlined, onHome: true },
  { id: 'fatPages', icon: ColumnHeightOutlined },
  { id: 'rules', icon: WarningOutlined, onHome: true },
  { id: 'pageRank', icon: TrophyOutlined },
  { id: 'pageInclusion', icon: FileSearchOutlined },
  { id: 'reports', icon: BarChartOutlined, onHome: true },
  { id: 'schedules', icon: CalendarOutlined, onHome: true },
  { id: 'cli', icon: CodeOutlined },
  { id: 'iframes', icon: ApiOutlined },
];
