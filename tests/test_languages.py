# ruff: noqa: E501 (conversations, one message a line)
"""Topics in any language: a vault in Italian, Korean or Japanese gets its subjects as topics, not its
function words, fillers, pasted paths or identifiers (wordfreq decides what is common, per language)."""

from __future__ import annotations

import pytest
from wordfreq import zipf_frequency

from compaction_tree.lang import COMMON_ZIPF
from compaction_tree.topics import candidates, rank_topics

CONVOS = {
    "it": [
        "Ciao! Vuoi che ti aiuti a configurare il database PostgreSQL per il progetto fatturazione?",
        "Sì, perfetto. Puoi spiegarmi come creare la tabella delle fatture? Ora non so da dove iniziare.",
        "Perfetto! Ora creiamo la tabella fatture con una colonna per il cliente e una per l'importo. Vuoi che aggiunga anche gli indici?",
        "Non funziona: ricevo un errore in C:\\Users\\ITMACOS\\Desktop\\fatture\\main.py quando avvio lo script Python.",
        "Il problema è che la connessione al database usa la porta sbagliata. Puoi controllare il file di configurazione? Ora dovrebbe funzionare con la porta 5432.",
        "Ottimo, adesso funziona. Vuoi che esportiamo le fatture in PDF con ReportLab?",
        "Sì, grazie. Puoi anche generare un riepilogo mensile delle fatture per ogni cliente?",
        "Certo! Ecco la funzione per il riepilogo mensile: raggruppa le fatture per cliente e per mese, e calcola il totale con l'IVA.",
    ],
    "ko": [
        "안녕하세요! 파이썬으로 데이터 분석을 하고 싶은데 어떻게 시작하면 좋을까요?",
        "네, 좋습니다. 먼저 판다스를 설치하고 CSV 파일을 읽어 보겠습니다. 이렇게 하면 데이터프레임이 만들어집니다.",
        "판다스로 매출 데이터를 읽었는데 오류가 있습니다. a_1 변수가 정의되지 않았다고 나옵니다.",
        "a_1 변수는 반복문 안에서만 정의되어 있습니다. 이렇게 수정하면 됩니다. 매출 데이터를 다시 읽어 보세요.",
        "감사합니다! 이제 매출 그래프를 그리고 싶습니다. 맷플롯립을 사용하면 될까요?",
        "네, 맷플롯립으로 월별 매출 그래프를 그릴 수 있습니다. 이렇게 하면 됩니다.",
        "그래프가 잘 나옵니다. 판다스와 맷플롯립 덕분에 매출 분석이 쉬워졌습니다.",
    ],
    "de": [
        "Hallo! Kannst du mir helfen, die Rechnungen in unserer Datenbank zu exportieren?",
        "Gerne. Welche Datenbank nutzt ihr denn? Wenn es PostgreSQL ist, können wir die Rechnungen direkt als CSV exportieren.",
        "Ja, es ist PostgreSQL. Jetzt bekomme ich aber einen Fehler beim Export der Rechnungen.",
        "Das liegt an den Berechtigungen. Der Benutzer braucht das Recht, die Tabelle Rechnungen zu lesen. Jetzt sollte der Export funktionieren.",
        "Perfekt, das hat geklappt. Können wir die Rechnungen auch automatisch jeden Monat exportieren?",
        "Ja, mit einem Cronjob. Ich schreibe dir das Skript für den monatlichen Export der Rechnungen.",
    ],
    "es": [
        "Hola, ¿puedes ayudarme a desplegar mi aplicación Django en Heroku?",
        "Claro. Primero necesitas un archivo Procfile y configurar la base de datos PostgreSQL en Heroku.",
        "Ya tengo el Procfile, pero el despliegue falla con un error de migraciones.",
        "Eso pasa porque las migraciones no se ejecutan durante el despliegue. Puedes añadir un paso de release en el Procfile para las migraciones.",
        "Perfecto, ahora funciona el despliegue. ¿Cómo puedo ver los logs de la aplicación en Heroku?",
        "Con el comando heroku logs --tail puedes ver los logs de la aplicación en tiempo real.",
    ],
    "pt": [
        "Oi! Como eu faço o backup do banco de dados do meu servidor Nextcloud?",
        "Como o Nextcloud usa MariaDB, você pode usar o mysqldump. Primeiro coloque o Nextcloud em modo de manutenção.",
        "Fiz o backup, mas o arquivo ficou enorme. Como posso comprimir o backup?",
        "Use o gzip junto com o mysqldump. Assim o backup do Nextcloud fica bem menor e você pode guardar mais cópias.",
        "Funcionou! Como agendamos o backup para rodar toda noite?",
        "Com um cron no servidor: o script coloca o Nextcloud em manutenção, faz o backup com mysqldump e gzip e depois volta.",
    ],
    "ru": [
        "Привет! Как настроить резервное копирование базы данных PostgreSQL на сервере?",
        "Можно использовать pg_dump. Как часто нужно делать резервные копии базы?",
        "Каждую ночь. Но скрипт резервного копирования падает с ошибкой доступа.",
        "Это из-за прав пользователя. Дайте пользователю права на чтение базы, и резервное копирование заработает.",
        "Получилось! Теперь резервные копии занимают много места на сервере.",
        "Сжимайте их через gzip и храните копии только за последние две недели.",
    ],
    "fr": [
        "Bonjour ! Peux-tu m'aider à écrire des tests pour mon API de réservation ?",
        "Bien sûr. Nous pouvons utiliser pytest avec des fixtures pour créer les réservations de test.",
        "Merci. Maintenant le test de réservation échoue parce que la date est dans le passé.",
        "Il faut passer la date actuelle à la fonction de réservation au lieu de l'appeler directement. Comme ça le test de réservation est stable.",
        "Parfait, les tests passent. Est-ce qu'on peut aussi tester l'annulation des réservations ?",
        "Oui, voici un test pour l'annulation : on crée une réservation puis on vérifie que l'annulation libère la place.",
    ],
    "ja": [
        "こんにちは。データベースのバックアップを自動化したいのですが、どうすればいいですか？",
        "はい、cronとpg_dumpを使えば、データベースのバックアップを毎日自動で取ることができます。",
        "ありがとうございます。バックアップのスクリプトを書きましたが、エラーが出ました。",
        "エラーの原因は権限です。バックアップ用のユーザーに権限を追加してください。",
        "権限を追加したら、バックアップが成功しました。復元の手順も教えてください。",
        "復元はpg_restoreを使います。まずテスト環境で復元を試してください。",
    ],
}

EXPECTED = {  # subjects of each conversation that must come out as topics
    "it": {"fatture", "cliente", "riepilogo mensile", "ReportLab"},
    "ko": {"매출", "판다스", "맷플롯립"},
    "de": {"Rechnungen", "Datenbank", "Cronjob"},
    "es": {"despliegue", "Procfile", "migraciones"},
    "fr": {"réservation", "test"},
    "pt": {"backup", "Nextcloud", "mysqldump"},
    "ru": {"pg_dump", "PostgreSQL", "резервное копирование"},
    "ja": {"バックアップ", "復元", "pg_dump"},
}


@pytest.mark.parametrize("lang", sorted(CONVOS))
def test_topics_are_subjects_not_function_words(lang: str) -> None:
    chunks = CONVOS[lang]
    names = [name for _, name, _ in rank_topics([candidates(c) for c in chunks], 15)]
    assert EXPECTED[lang] <= set(names), names
    for name in names:
        if lang not in ("ja", "ko"):  # wordfreq's Japanese and Korean words are morphemes: checked by EXPECTED
            assert any(zipf_frequency(w, lang) < COMMON_ZIPF for w in name.split()), (name, names)
        assert "ITMACOS" not in name and "Users" not in name  # a pasted Windows path
        assert name not in ("a_1", "있습니다", "이렇게", "Vuoi che", "Puoi", "Ora", "Est-ce", "Peux-tu", "Como"), names


def test_an_english_chunk_keeps_its_own_lists() -> None:
    """English words that are common in another language ("data" in Portuguese, "school" in Dutch)
    stay topics of English text: each chunk is checked against its own language only."""
    text = "The school data job is on the status page. The school data job failed again on the status page."
    keys = {c.key for c in candidates(text)}
    assert {"school", "data", "job", "status", "page"} <= keys
