import {
  ArrowLeftOutlined,
  DownloadOutlined,
  LeftOutlined,
  RightOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Alert, Button, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { languageOfTag } from '@linkaudit/core';
import { PageHeading } from '../../../components/ui/PageHeading';
import { paths, pathTo } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { errorMessages } from '../../../lib/errors';
import { useReportPdf } from '../api/report-pdf';
import { usePdfDocument, usePdfPage } from './pdf-pages';
import './report-viewer.css';
import { useReportSummary } from '../api/get-report';

/** Zoom steps (1 = the PDF's own size: one point a CSS pixel). */
const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
const defaultZoom = 1.25;

/**
 * /reportingservice/{scanId} and /app/reports/ReportViewer?reportTypeID=0&userScanId={scanId}:
 * the report's PDF (GET /api/report/pdf, the same content as "Show as PDF") shown page by page
 * with pdf.js, with page navigation, zoom and download. Who may read it is the server's check:
 * owners, admins and the sample report.
 */
export default function ReportViewerPage() {
  const { t, i18n } = useTranslation();
  const { scanId: pathId } = useParams();
  const [params] = useSearchParams();
  const scanId = pathId ?? params.get('userScanId') ?? '';
  // SPEC §7 names report type 0 (the scan report) only.
  const knownType = pathId !== undefined || (params.get('reportTypeID') ?? '0') === '0';
  const pdf = useReportPdf(knownType ? scanId : '', languageOfTag(i18n.language));

  // The site the report is about under the title (issue 37), not the scan's id.
  const summary = useReportSummary(knownType ? scanId : '');
  const heading = <PageHeading title={t('reportViewer.title')} lead={summary.data?.url} />;
  const problem = (text: string) => (
    <div className="report-page">
      {heading}
      <Alert type="error" showIcon title={text} />
    </div>
  );
  if (!scanId) return problem(t('reportViewer.noScan'));
  if (!knownType) return problem(t('reportViewer.unknownType'));
  if (pdf.isError) {
    const status = pdf.error instanceof ApiError ? pdf.error.status : 0;
    if (status === 404) return problem(t('reportViewer.notFound'));
    if (status === 403) return problem(t('reportViewer.forbidden'));
    return problem(errorMessages(pdf.error).join('\n'));
  }
  if (pdf.isPending) {
    return (
      <div className="report-page">
        {heading}
        <Typography.Paragraph>{t('reportViewer.loading')}</Typography.Paragraph>
        <Spin size="large" className="page-spin" />
      </div>
    );
  }
  return (
    <div className="report-page">
      {heading}
      <PdfViewer scanId={scanId} bytes={pdf.data.bytes} fileName={pdf.data.fileName} />
    </div>
  );
}

function PdfViewer({
  scanId,
  bytes,
  fileName,
}: {
  scanId: string;
  bytes: ArrayBuffer;
  fileName: string;
}) {
  const { t } = useTranslation();
  const { document, error } = usePdfDocument(bytes);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState(defaultZoom);
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const [textLayer, setTextLayer] = useState<HTMLDivElement | null>(null);
  const { drawn } = usePdfPage(document, pageNumber, zoom, canvas, textLayer);
  const pages = document?.numPages ?? 0;
  const downloadUrl = useMemo(
    () => URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })),
    [bytes],
  );
  useEffect(() => () => URL.revokeObjectURL(downloadUrl), [downloadUrl]);

  if (error) return <Alert type="error" showIcon title={t('reportViewer.failed')} />;
  const zoomIndex = zoomSteps.indexOf(zoom);
  return (
    <>
      <Space wrap className="report-toolbar report-viewer-toolbar no-print">
        <Link to={pathTo(paths.report, { scanId })}>
          <Button icon={<ArrowLeftOutlined />}>{t('reportViewer.backToReport')}</Button>
        </Link>
        <Button
          icon={<LeftOutlined />}
          aria-label={t('reportViewer.previous')}
          disabled={pageNumber <= 1}
          onClick={() => setPageNumber((n) => n - 1)}
        />
        <Typography.Text className="report-viewer-position" aria-live="polite">
          {pages > 0 ? t('reportViewer.pageOf', { page: pageNumber, pages }) : '…'}
        </Typography.Text>
        <Button
          icon={<RightOutlined />}
          aria-label={t('reportViewer.next')}
          disabled={pageNumber >= pages}
          onClick={() => setPageNumber((n) => n + 1)}
        />
        <Button
          icon={<ZoomOutOutlined />}
          aria-label={t('reportViewer.zoomOut')}
          disabled={zoomIndex <= 0}
          onClick={() => setZoom(zoomSteps[zoomIndex - 1] ?? zoom)}
        />
        <Typography.Text className="report-viewer-zoom">
          {t('reportViewer.zoom', { percent: Math.round(zoom * 100) })}
        </Typography.Text>
        <Button
          icon={<ZoomInOutlined />}
          aria-label={t('reportViewer.zoomIn')}
          disabled={zoomIndex >= zoomSteps.length - 1}
          onClick={() => setZoom(zoomSteps[zoomIndex + 1] ?? zoom)}
        />
        <a href={downloadUrl} download={fileName}>
          <Button icon={<DownloadOutlined />}>{t('reportViewer.download')}</Button>
        </a>
      </Space>
      <div className="report-viewer-pages">
        <div
          className="report-viewer-page"
          data-drawn-page={drawn ?? undefined}
          style={{ ['--scale-factor' as string]: zoom }}
        >
          <canvas
            ref={setCanvas}
            aria-label={t('reportViewer.pageOf', { page: pageNumber, pages })}
          />
          <div ref={setTextLayer} className="textLayer" />
        </div>
      </div>
    </>
  );
}
